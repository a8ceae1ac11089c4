// The one place where backends are registered. A backend whose package was missing at
// configure time is registered as not built, with the reason CMake found.
#include "backends/build_config.h"
#include "backends/null/null_backend.h"
#include "backends/registry.h"

#if EDGEBENCH_WITH_ORT
#include "backends/ort/ort_backend.h"
#endif
#if EDGEBENCH_WITH_LITERT
#include "backends/litert/litert_backend.h"
#endif
#if EDGEBENCH_WITH_LLAMACPP
#include "backends/llamacpp/llamacpp_backend.h"
#endif

namespace edgebench {

void RegisterBuiltBackends(Registry& registry) {
  registry.Add(std::make_unique<NullBackend>());
#if EDGEBENCH_WITH_ORT
  registry.Add(MakeOrtBackend());
#else
  registry.AddNotBuilt({"ort", "ONNX Runtime", "", false, kOrtNotBuiltReason, {".onnx"}, {}, {}});
#endif
#if EDGEBENCH_WITH_LITERT
  registry.Add(MakeLiteRtBackend());
#else
  registry.AddNotBuilt(
      {"litert", "TensorFlow Lite", "", false, kLiteRtNotBuiltReason, {".tflite"}, {}, {}});
#endif
#if EDGEBENCH_WITH_LLAMACPP
  registry.Add(MakeLlamaCppBackend());
#else
  registry.AddNotBuilt({"llamacpp", "llama.cpp", "", false, kLlamaCppNotBuiltReason, {".gguf"}, {}, {}});
#endif
#if !EDGEBENCH_WITH_EXECUTORCH
  registry.AddNotBuilt(
      {"executorch", "ExecuTorch", "", false, kExecuTorchNotBuiltReason, {".pte"}, {}});
#endif
}

}  // namespace edgebench
