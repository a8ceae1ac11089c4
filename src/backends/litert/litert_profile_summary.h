// LiteRT's profile summary (LiteRtGetProfileSummary: TensorFlow Lite's profile summarizer's
// text), read into the operators' times and the nodes an accelerator left to builtin kernels.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "backends/backend.h"
#include "core/status.h"

namespace edgebench {

// The per-node rows of a LiteRT profile summary's "Run Order" table over `runs` runs: the
// accelerator's operators inside its delegate (on `device`) and the builtin kernels, each with
// its average time.
Result<OperatorProfile> OperatorProfileFromLiteRtSummary(const std::string& summary, int64_t runs,
                                                         const std::string& device = "xnnpack");

// Counts "[Builtin]" rows by node type in the "Run Order" table of a LiteRT profile summary:
// the nodes XNNPACK did not take.
std::map<std::string, int> BuiltinNodesInProfile(const std::string& summary);

}  // namespace edgebench
