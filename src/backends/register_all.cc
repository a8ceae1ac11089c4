// The one place where backends are registered, by name. The runtimes' backends are plugins
// (cmake/backend_plugin.cmake), opened only when a case needs them, each describing itself then
// (backends/plugin_abi.h); a backend whose package was missing at configure time is registered
// as not built, with the reason CMake found.
#include "backends/build_config.h"
#include "backends/null/null_backend.h"
#include "backends/plugin_loader.h"
#include "backends/registry.h"

namespace edgebench {
namespace {

void AddPluginOrNotBuilt(Registry& registry, const std::string& plugin_dir, bool built, const std::string& name,
                         const char* not_built_reason) {
  if (built) {
    registry.AddPlugin(name, BackendPluginPath(plugin_dir, name));
  } else {
    registry.AddNotBuilt(name, not_built_reason);
  }
}

}  // namespace

void RegisterBuiltBackends(Registry& registry, const std::string& plugin_dir) {
  registry.Add(std::make_unique<NullBackend>());
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_ORT, "ort", kOrtNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_LITERT, "litert", kLiteRtNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_LLAMACPP, "llamacpp", kLlamaCppNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_EXECUTORCH, "executorch", kExecuTorchNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_OPENVINO, "openvino", kOpenVinoNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_MEDIAPIPE, "mediapipe", kMediaPipeNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_OPENCV, "opencv", kOpenCvNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_LIBTORCH, "libtorch", kLibTorchNotBuiltReason);
  AddPluginOrNotBuilt(registry, plugin_dir, EDGEBENCH_WITH_ARMNN, "armnn", kArmNnNotBuiltReason);
}

void RegisterBuiltBackends(Registry& registry) {
  RegisterBuiltBackends(registry, DefaultBackendPluginDir());
}

}  // namespace edgebench
