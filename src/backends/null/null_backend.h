// The null backend: runs no model. Each run sleeps or spins a set time, to test the
// harness itself (LoadGen's null system under test). It ignores the artifact.
//
// Targets: null:sleep or null:spin, with options
//   us=N        microseconds per run (default 1000)
//   jitter_us=N each run takes an extra time drawn from an exponential distribution of mean N
//               microseconds (a known noise with a long tail): with noise_seed=N the draws are
//               a function of N and the run's number (reproducible); without it, of a seed drawn
//               afresh for each session (independent from one worker to the next)
//   fail_at=N   the Nth run (1-based) returns an error
//   crash_at=N  the Nth run aborts the process (tests crash isolation)
//   dynamic=on  the input's first dimension is the symbol "batch"
//   input=1x4x4x3  the input's shape (default 1x16): a stage of a pipeline after a preprocess
//   grow_mb=N   each run keeps N more MiB resident (a leak, to test memory limits); grow_kb=N
//               and leak_bytes=N the same in KiB and bytes; the three add up. The blocks come
//               from one function, EdgebenchNullPlantedLeak (what --leak-sites must find)
//   crash_on_release=on  the backend aborts when it is destroyed (a runtime that crashes on
//               teardown, after its results are in)
#pragma once

#include "backends/backend.h"

namespace edgebench {

// The time run `run` (1-based) of a session takes before the harness's own overhead:
// us + Exponential(mean jitter_us), the draw a function of (noise_seed, run) alone. Its
// distribution function is known: P(time <= us + x) = 1 - exp(-x / jitter_us).
int64_t NullRunMicroseconds(int64_t us, int64_t jitter_us, uint64_t noise_seed, uint64_t run);

class NullBackend : public Backend {
 public:
  BackendInfo Info() const override;
  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override;
  ~NullBackend() override;

 private:
  bool crash_on_release_ = false;
};

}  // namespace edgebench
