// Ctrl-C and SIGTERM while a plan runs: the running case's worker is killed at once, no further
// case starts, every record already stored stays intact (the interrupted case has none, so a
// resumed suite runs it again), and the command exits 128 + the signal. A second signal ends
// the process at once. The state is one atomic written by the handler: signals are process-wide.
#pragma once

namespace edgebench {

void InstallInterruptHandlers();
// The signal that interrupted the plan, or 0.
int InterruptSignal();

}  // namespace edgebench
