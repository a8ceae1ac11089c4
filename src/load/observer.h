// Observers of a scenario's phases: the stage announcer, and later device samplers and
// profilers, attach here rather than inside the timing loops (as TFLite's BenchmarkListener).
#pragma once

#include <cstdint>
#include <string>

namespace edgebench {

// Hooks around a scenario's phases ("warmup", "measure"). Called on the scenario's thread,
// outside the timed spans; implementations must be quick or hand work to their own thread.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // `expected_ms`: how long the phase should take at most, when the scenario knows (0: unknown).
  virtual void OnPhaseStart(const std::string& /*phase*/, int64_t /*expected_ms*/) {}
  virtual void OnPhaseEnd(const std::string& /*phase*/) {}
  // `done` of the phase's `total` requests have finished (scenarios whose requests are long
  // enough to count: a language model's), for the progress line's "request i/N" and ETA.
  virtual void OnProgress(int64_t /*done*/, int64_t /*total*/) {}
};

}  // namespace edgebench
