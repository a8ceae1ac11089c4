#include "core/crash_note.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace edgebench {
namespace {

thread_local const std::string* current_note = nullptr;
int note_fd = -1;
volatile sig_atomic_t name_thread = 0;
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction previous_actions[sizeof kSignals / sizeof kSignals[0]];

void WriteAll(const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(note_fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// {"crashed_thread":"NAME"}: the crashing thread's name, read with calls safe in a handler, its
// characters past [A-Za-z0-9._-] written as '_' (the line stays JSON whatever the name).
void WriteThreadName() {
  char line[64] = "{\"crashed_thread\":\"";
  size_t length = sizeof "{\"crashed_thread\":\"" - 1;
  const int fd = ::open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char name[32];
  const ssize_t n = ::read(fd, name, sizeof name);
  ::close(fd);
  for (ssize_t i = 0; i < n && name[i] != '\n' && length < sizeof line - 4; ++i) {
    const char c = name[i];
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                       c == '_' || c == '-';
    line[length++] = plain ? c : '_';
  }
  line[length++] = '"';
  line[length++] = '}';
  line[length++] = '\n';
  WriteAll(line, length);
}

void WriteNoteAndDie(int sig) {
  const int saved_errno = errno;
  if (name_thread && note_fd >= 0) WriteThreadName();
  if (const std::string* note = current_note; note && note_fd >= 0) WriteAll(note->data(), note->size());
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

void NameCrashingThread(bool name) { name_thread = name ? 1 : 0; }

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

std::string SignalText(int signal) {
  const char* name = ::strsignal(signal);
  return "signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : std::string());
}

}  // namespace edgebench
