// litert:xnnpack: a .tflite model compiled by LiteRT (the ai-edge-litert wheel's library)
// for the CPU accelerator, which runs it through XNNPACK.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/litert/litert_library.h"

namespace edgebench {

// Whether litert:cpu (TensorFlow Lite's builtin kernels) runs the model at the given input
// shapes, by input name: Ok, or why not. litert:xnnpack asks it before it suggests litert:cpu
// for a shape it cannot run itself, so that it never sends users to a target that fails too.
using BuiltinShapeCheck = std::function<Status(const std::map<std::string, std::vector<int64_t>>&)>;

// With fail_on_fallback (the target option fallback=fail), a model XNNPACK does not take whole
// is an error naming the op types left to builtin kernels; otherwise a note says so.
Result<std::unique_ptr<Session>> LoadLiteRtXnnpackSession(std::shared_ptr<LiteRtLibrary> library,
                                                         const Artifact& artifact, int threads,
                                                         bool fail_on_fallback = false,
                                                         BuiltinShapeCheck builtin_check = {},
                                                         bool profile = false);

// The per-node rows of a LiteRT profile summary's "Run Order" table over `runs` runs: XNNPACK's
// operators inside its delegate and the builtin kernels, each with its average time.
Result<OperatorProfile> OperatorProfileFromLiteRtSummary(const std::string& summary, int64_t runs);

// Counts "[Builtin]" rows by node type in the "Run Order" table of a LiteRT profile summary:
// the nodes XNNPACK did not take.
std::map<std::string, int> BuiltinNodesInProfile(const std::string& summary);

}  // namespace edgebench
