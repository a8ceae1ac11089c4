// litert:xnnpack and litert:gpu: a .tflite model compiled by LiteRT (the ai-edge-litert wheel's
// library) for its CPU accelerator, which runs it through XNNPACK, or for its GPU accelerator
// (the wheel's WebGPU one, which Dawn runs on a Vulkan device: Mesa's lavapipe here, labelled
// emulated). What the accelerator does not take runs on LiteRT's builtin kernels on the CPU.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/litert/litert_library.h"
#include "backends/litert/litert_profile_summary.h"

namespace edgebench {

// Whether litert:cpu (TensorFlow Lite's builtin kernels) runs the model at the given input
// shapes, by input name: Ok, or why not. litert:xnnpack asks it before it suggests litert:cpu
// for a shape it cannot run itself, so that it never sends users to a target that fails too.
using BuiltinShapeCheck = std::function<Status(const std::map<std::string, std::vector<int64_t>>&)>;

enum class LiteRtAccelerator { kXnnpack, kGpu };
const char* LiteRtAcceleratorName(LiteRtAccelerator accelerator);  // "xnnpack", "gpu"

// With fail_on_fallback (the target option fallback=fail), a model the accelerator does not
// take whole is an error naming the op types left to builtin kernels; otherwise a note says so.
// `threads` is XNNPACK's (kGpu: 0, not applied).
Result<std::unique_ptr<Session>> LoadLiteRtXnnpackSession(std::shared_ptr<LiteRtLibrary> library,
                                                         const Artifact& artifact, int threads,
                                                         bool fail_on_fallback = false,
                                                         BuiltinShapeCheck builtin_check = {},
                                                         bool profile = false,
                                                         LiteRtAccelerator accelerator = LiteRtAccelerator::kXnnpack);

// The GPU adapter a LiteRT WebGPU log line names ("Selected adapter: llvmpipe (LLVM 21.1.8,
// 256 bits), arch=software, vendor=mesa, backend=Vulkan, adapterType=CPU / Software"): the
// text after "Selected adapter: ", or "" for another line.
std::string WebGpuAdapterInLine(const std::string& line);
// Whether that adapter is a software one (adapterType CPU or Software): lavapipe, SwiftShader.
bool IsSoftwareWebGpuAdapter(const std::string& adapter);

}  // namespace edgebench
