#include "core/crash_note.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace edgebench {
namespace {

thread_local const std::string* current_note = nullptr;
int note_fd = -1;
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction previous_actions[sizeof kSignals / sizeof kSignals[0]];

void WriteNoteAndDie(int sig) {
  const int saved_errno = errno;
  if (const std::string* note = current_note; note && note_fd >= 0) {
    size_t done = 0;
    while (done < note->size()) {
      const ssize_t n = ::write(note_fd, note->data() + done, note->size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
  }
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
    if (kSignals[i] == sig) ::sigaction(sig, &previous_actions[i], nullptr);
  }
  errno = saved_errno;
  // A fault returns to the faulting instruction, which faults again under the previous action;
  // a raised signal (abort) is raised again.
  if (sig == SIGABRT || sig == SIGFPE) ::raise(sig);
}

}  // namespace

void SetCrashNote(const std::string* line) { current_note = line; }

void InstallCrashNoteHandlers(int fd) {
  note_fd = fd;
  struct sigaction action {};
  action.sa_handler = WriteNoteAndDie;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_NODEFER;
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
    ::sigaction(kSignals[i], &action, &previous_actions[i]);
  }
}

}  // namespace edgebench
