// The null backend: runs no model. Each run sleeps or spins a set time, to test the
// harness itself (LoadGen's null system under test). It ignores the artifact.
//
// Targets: null:sleep or null:spin, with options
//   us=N        microseconds per run (default 1000)
//   fail_at=N   the Nth run (1-based) returns an error
//   crash_at=N  the Nth run aborts the process (tests crash isolation)
//   dynamic=on  the input's first dimension is the symbol "batch"
//   grow_mb=N   each run keeps N more MiB resident (a leak, to test memory limits)
//   crash_on_release=on  the backend aborts when it is destroyed (a runtime that crashes on
//               teardown, after its results are in)
#pragma once

#include "backends/backend.h"

namespace edgebench {

class NullBackend : public Backend {
 public:
  BackendInfo Info() const override;
  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override;
  ~NullBackend() override;

 private:
  bool crash_on_release_ = false;
};

}  // namespace edgebench
