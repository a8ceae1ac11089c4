// What a thread is doing, for the report of a crash: a worker that dies on a fatal signal while
// a thread has a note set writes that thread's note to its protocol pipe first, so the
// orchestrator's `crashed` record names more than the case's stage ("run, pipeline stage
// detect": the stage of a pipeline whose runtime crashed). Setting a note is one thread-local
// store, cheap enough for every stage of every query.
#pragma once

#include <string>

namespace edgebench {

// `line` (a whole protocol line, "\n" included; null: none) stays the calling thread's note until
// replaced. The string must outlive the note.
void SetCrashNote(const std::string* line);

// Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT that write the crashing
// thread's note, if any, to `fd` and then let the signal act as it did before (the process dies
// of it, or a sanitizer reports it).
void InstallCrashNoteHandlers(int fd);

// With `name` true the handlers also write the crashing thread's name first, as a line
// {"crashed_thread":"NAME"}: where several cases share a process (worker/together_cases.h), whose
// thread died.
void NameCrashingThread(bool name);

// "signal 11 (Segmentation fault)": a signal as every message about a process it ended says it.
std::string SignalText(int signal);

}  // namespace edgebench
