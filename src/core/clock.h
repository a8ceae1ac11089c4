// The harness's only clock: steady, in nanoseconds. Backends never time themselves.
#pragma once

#include <time.h>

#include <chrono>
#include <cstdint>

namespace edgebench {

using SteadyClock = std::chrono::steady_clock;

inline int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             SteadyClock::now().time_since_epoch())
      .count();
}

// The calling thread's CPU time (not a harness clock: what a thread spent, for a host stage's
// CPU time beside its wall time and the null backend's CPU-bound device). A system call.
inline int64_t ThreadCpuNs() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

inline int64_t ElapsedNs(SteadyClock::time_point start, SteadyClock::time_point end) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
}

}  // namespace edgebench
