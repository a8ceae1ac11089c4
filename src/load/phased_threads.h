// Load threads that warm up apart and start their measured phase together (the closed loop's
// streams, the server's workers). The scenario's own thread tells the observer about the phases,
// never a load thread, and takes the measured phase's start on the harness clock once every
// load thread has warmed up.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <latch>

#include "load/observer.h"

namespace edgebench {

class PhaseGate {
 public:
  // Harness clock when the warmup phase started (before any load thread).
  int64_t warmup_start() const { return warmup_start_; }
  // On a load thread, after its warmup (failed or not): waits until every load thread has
  // warmed up and the measured phase is open; returns its start on the harness clock.
  int64_t WaitForMeasuredPhase() {
    warmed_.count_down();
    open_.wait(false, std::memory_order_acquire);
    return measured_start_;
  }

 private:
  friend int64_t RunInPhases(int, const std::function<void(int, PhaseGate&)>&, RunObserver*, int64_t,
                             const std::function<int64_t()>&);
  explicit PhaseGate(int threads) : warmed_(threads) {}
  std::latch warmed_;
  std::atomic<bool> open_{false};
  int64_t warmup_start_ = 0;
  int64_t measured_start_ = 0;  // written before `open_`, read after it
};

// Runs thread_main(i, gate) on `threads` threads and returns when all have ended; the returned
// value is the measured phase's start. The observer hears "warmup" start before the threads,
// "warmup" end and "measure" start (with `measure_expected_ms`) once all have warmed up, and
// "measure" end after they ended.
int64_t RunInPhases(int threads, const std::function<void(int, PhaseGate&)>& thread_main, RunObserver* observer,
                    int64_t measure_expected_ms, const std::function<int64_t()>& now);

}  // namespace edgebench
