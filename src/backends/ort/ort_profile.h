// ONNX Runtime's profile file (SessionOptions::EnableProfiling) read into an OperatorProfile.
//
// ORT writes a Chrome trace: one JSON event per line. "Node" events named "<node>_kernel_time"
// carry each kernel's duration with its op type and provider; a "Session" event "model_run"
// spans each Run(). Profiling starts at session creation, so the warmup's runs are in the file:
// the reader drops every event before the start of run number `skip_runs` (0-based, in start
// order), which is how "profile only after warmup" is honoured.
#pragma once

#include <cstdint>
#include <istream>

#include "core/operator_profile.h"
#include "core/status.h"

namespace edgebench {

// `start_ns`: the harness-clock time of the profile's zero (its events' "ts" are microseconds
// from it). Error when the text is not an ORT profile at all.
Result<OperatorProfile> ReadOrtProfile(std::istream& in, int64_t skip_runs, int64_t start_ns);

}  // namespace edgebench
