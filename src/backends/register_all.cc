// The one place where backends are registered. The runtimes' backends are plugins
// (cmake/backend_plugin.cmake), opened only when a case needs them; a backend whose package was
// missing at configure time is registered as not built, with the reason CMake found.
#include "backends/build_config.h"
#include "backends/null/null_backend.h"
#include "backends/plugin_loader.h"
#include "backends/registry.h"

namespace edgebench {
namespace {

void AddPluginOrNotBuilt(Registry& registry, const std::string& plugin_dir, bool built,
                         BackendInfo declared, const char* not_built_reason) {
  if (built) {
    const std::string path = BackendPluginPath(plugin_dir, declared.name);
    registry.AddPlugin(std::move(declared), path);
  } else {
    declared.reason = not_built_reason;
    registry.AddNotBuilt(std::move(declared));
  }
}

BackendInfo Declared(std::string name, std::string runtime, std::vector<std::string> extensions) {
  BackendInfo info;
  info.name = std::move(name);
  info.runtime = std::move(runtime);
  info.artifact_extensions = std::move(extensions);
  return info;
}

}  // namespace

void RegisterBuiltBackends(Registry& registry, const std::string& plugin_dir) {
  registry.Add(std::make_unique<NullBackend>());
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_ORT, Declared("ort", "ONNX Runtime", {".onnx"}),
                      kOrtNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_LITERT,
                      Declared("litert", "TensorFlow Lite", {".tflite"}), kLiteRtNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_LLAMACPP,
                      Declared("llamacpp", "llama.cpp", {".gguf"}), kLlamaCppNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_EXECUTORCH,
                      Declared("executorch", "ExecuTorch", {".pte"}), kExecuTorchNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_OPENVINO,
                      Declared("openvino", "OpenVINO", {".onnx", ".tflite", ".xml"}),
                      kOpenVinoNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_MEDIAPIPE,
                      Declared("mediapipe", "MediaPipe Tasks", {".tflite"}), kMediaPipeNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_OPENCV,
                      Declared("opencv", "OpenCV DNN", {".onnx", ".tflite"}), kOpenCvNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_LIBTORCH,
                      Declared("libtorch", "LibTorch", {".pt"}), kLibTorchNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_ARMNN,
                      Declared("armnn", "Arm NN", {".tflite"}), kArmNnNotBuiltReason);
}

void RegisterBuiltBackends(Registry& registry) {
  RegisterBuiltBackends(registry, DefaultBackendPluginDir());
}

}  // namespace edgebench
