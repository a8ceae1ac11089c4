// LiteRT's own C API ("CompiledModel"), loaded at run time with dlopen from the libLiteRt.so
// that PyPI's ai-edge-litert 2.3.0 wheel ships (XNNPACK built in). Debian's TensorFlow Lite
// has no XNNPACK delegate; this library is how edgebench offers litert:xnnpack honestly.
//
// Only the pinned version is supported: the CPU options identifier and the model-loading
// signature changed across LiteRT releases. Every handle is an opaque pointer; statuses are
// ints (0 = ok).
#pragma once

#include <memory>
#include <string>

#include "core/status.h"

namespace edgebench {

inline constexpr const char* kLiteRtWheelVersion = "2.3.0";

struct LiteRtApi {
  using H = void*;
  using Idx = size_t;
  int (*CreateEnvironment)(int, const void*, H*);
  void (*DestroyEnvironment)(H);
  int (*CreateModelFromFile)(H, const char*, H*);
  void (*DestroyModel)(H);
  int (*GetNumModelSignatures)(H, Idx*);
  int (*GetModelSignature)(H, Idx, H*);
  int (*GetSignatureSubgraph)(H, H*);
  int (*GetNumSubgraphOps)(H, Idx*);
  int (*GetSubgraphOp)(H, Idx, H*);
  int (*GetOpCode)(H, int*);
  int (*GetNumSignatureInputs)(H, Idx*);
  int (*GetNumSignatureOutputs)(H, Idx*);
  int (*GetSignatureInputName)(H, Idx, const char**);
  int (*GetSignatureOutputName)(H, Idx, const char**);
  int (*GetSignatureInputTensorByIndex)(H, Idx, H*);
  int (*GetSignatureOutputTensorByIndex)(H, Idx, H*);
  int (*GetRankedTensorType)(H, void*);
  int (*CreateOptions)(H*);
  void (*DestroyOptions)(H);
  int (*SetOptionsHardwareAccelerators)(H, int);
  int (*CreateOpaqueOptions)(const char*, void*, void (*)(void*), H*);
  int (*AddOpaqueOptions)(H, H);
  int (*CreateCompiledModel)(H, H, H, H*);
  void (*DestroyCompiledModel)(H);
  int (*CompiledModelIsFullyAccelerated)(H, bool*);
  int (*GetCompiledModelInputBufferRequirements)(H, Idx, Idx, H*);
  int (*GetCompiledModelOutputBufferRequirements)(H, Idx, Idx, H*);
  int (*GetTensorBufferRequirementsBufferSize)(H, size_t*);
  int (*CreateTensorBufferFromHostMemory)(const void*, void*, size_t, void (*)(void*), H*);
  void (*DestroyTensorBuffer)(H);
  int (*RunCompiledModel)(H, Idx, size_t, H*, size_t, H*);
  int (*CompiledModelGetProfiler)(H, H*);
  int (*StartProfiler)(H);
  int (*StopProfiler)(H);
  int (*ResetProfiler)(H);
  int (*GetProfileSummary)(H, H, const char**);
};

class LiteRtLibrary {
 public:
  // Opens the library and resolves every function; the error names the missing piece.
  static Result<std::shared_ptr<LiteRtLibrary>> Open(const std::string& path);
  ~LiteRtLibrary();
  const LiteRtApi& api() const { return api_; }
  const std::string& path() const { return path_; }

  // litert:gpu: loads the wheel's WebGPU accelerator (libLiteRtWebGpuAccelerator.so, beside
  // libLiteRt.so) into the process, so that LiteRT's own dlopen of that name finds it: the
  // library has no RUNPATH to look beside itself. Ok once loaded; else why, and what to do.
  Status LoadGpuAccelerator();
  std::string GpuAcceleratorPath() const;

 private:
  void* handle_ = nullptr;
  void* gpu_handle_ = nullptr;  // kept for the process's life, as the library's
  std::string path_;
  LiteRtApi api_{};
};

// Where the library is looked for: $EDGEBENCH_LITERT_LIB, else the copy scripts/fixtures
// unpacks under $EDGEBENCH_CACHE (default ~/.cache/edgebench)/runtimes/.
std::string LiteRtLibraryPath();

}  // namespace edgebench
