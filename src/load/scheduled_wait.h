// Waiting for a scheduled instant on a load thread (a server's arrival, a burst's start): sleep
// until shortly before it, then spin. A sleeping thread wakes about 55 us late on these machines
// even with 1 ns of timer slack, and later under load, so a 30 us window missed the 50 us p99
// lateness goal at 10,000 QPS (p99 1.2 ms) where 200 us meets it (p99 24 us;
// bench/run_load_harness server). The cost: a thread spins up to 200 us before each instant,
// continuously above ~5,000 instants/s per thread: CPU a runtime's own threads cannot use
// meanwhile.
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

#include "core/clock.h"

namespace edgebench {

inline constexpr int64_t kSpinWindowNs = 200'000;

// Waits until the steady clock reaches `target_ns`; returns the time it saw then.
inline int64_t WaitUntil(int64_t target_ns) {
  int64_t t = NowNs();
  while (t < target_ns) {
    if (target_ns - t > kSpinWindowNs) {
      std::this_thread::sleep_for(std::chrono::nanoseconds(target_ns - t - kSpinWindowNs));
    }
    t = NowNs();
  }
  return t;
}

}  // namespace edgebench
