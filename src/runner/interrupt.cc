#include "runner/interrupt.h"

#include <signal.h>

#include <atomic>

namespace edgebench {
namespace {

std::atomic<int> g_signal{0};

void OnSignal(int sig) {
  if (g_signal.exchange(sig) != 0) {
    ::signal(sig, SIG_DFL);  // the second one: stop now
    ::raise(sig);
  }
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: the worker's poll wakes up with EINTR
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

int InterruptSignal() { return g_signal.load(); }

}  // namespace edgebench
