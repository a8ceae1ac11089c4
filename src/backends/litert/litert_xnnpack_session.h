// litert:xnnpack: a .tflite model compiled by LiteRT (the ai-edge-litert wheel's library)
// for the CPU accelerator, which runs it through XNNPACK.
#pragma once

#include <memory>

#include "backends/backend.h"
#include "backends/litert/litert_library.h"

namespace edgebench {

Result<std::unique_ptr<Session>> LoadLiteRtXnnpackSession(std::shared_ptr<LiteRtLibrary> library,
                                                         const Artifact& artifact, int threads);

// Counts "[Builtin]" rows by node type in the "Run Order" table of a LiteRT profile summary:
// the nodes XNNPACK did not take.
std::map<std::string, int> BuiltinNodesInProfile(const std::string& summary);

}  // namespace edgebench
