// One path from a target as written ("ort:xnnpack?threads=2") to a backend and a device that can
// run it here. Every kind of case (measurement, LLM, outputs for `agree`) resolves through it, so
// they agree on what "unavailable" means.
#pragma once

#include <optional>
#include <string>

#include "backends/registry.h"
#include "record/record.h"

namespace edgebench {

struct ResolvedTarget {
  Target target;
  Backend* backend = nullptr;
  BackendInfo backend_info;
  DeviceInfo device;
};

struct TargetResolution {
  std::optional<ResolvedTarget> resolved;  // set when the target can run here
  CaseStatus status = CaseStatus::kFailed;  // kFailed (a wrong target) or kUnavailable
  std::string error;                        // why, for people
};

// The backend and device of a parsed target (the case reader parsed it), or why it cannot run here.
TargetResolution ResolveTarget(const Target& target, const Registry& registry, SessionKind kind);

// For the orchestrator, before anything runs: an error when the target names a backend this
// edgebench does not know, or a device its backend does not have (a typo, exit 2). A backend
// that is known but not built, or a device not available here, is fine: its case becomes an
// "unavailable" record saying why.
Status CheckTargetKnown(const Target& target, const Registry& registry);

}  // namespace edgebench
