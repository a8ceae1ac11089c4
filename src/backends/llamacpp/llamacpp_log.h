// llama.cpp and ggml log through one callback (llama_log_set), libmtmd through mtmd_log_set. It writes ~320 lines while
// loading even a tiny model; edgebench shows them only with --verbose, keeps warnings and
// errors for the record, and picks out which CPU backend variant ggml loaded.
#pragma once

#include <mutex>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ggml.h>

namespace edgebench {

// "load_backend: loaded CPU backend from /usr/lib/.../libggml-cpu-haswell.so" -> that path.
std::optional<std::string> ParseCpuBackendVariant(const std::string& line);
// "clip_init: CLIP using CPU backend" -> "CPU": the backend libmtmd put a vision tower on.
std::optional<std::string> ParseVisionBackend(const std::string& line);

// llama.cpp's count of the layers it put on a device, from its load log: "load_tensors:
// offloaded 5/5 layers to GPU" -> "5/5 layers"; nullopt for any other line.
std::optional<std::string> ParseOffloadedLayers(const std::string& line);
// One buffer llama.cpp reports allocating on a device at load: "load_tensors: Vulkan0 model
// buffer size = 1.50 MiB" -> {Vulkan0, model, 1.5}; kinds are model, KV, compute and output.
struct LlamaBufferLine {
  std::string device;
  std::string kind;
  double mib = 0;
};
std::optional<LlamaBufferLine> ParseBufferLine(const std::string& line);
// The device a KV cache layer is on: "llama_kv_cache: layer   1: dev = Vulkan0" -> "Vulkan0".
std::optional<std::string> ParseKvLayerDevice(const std::string& line);

// Where llama.cpp put a model as it loaded, from its own log.
struct LlamaPlacementLog {
  std::string offload;  // "2/3 layers", "" if it did not say
  std::map<std::string, std::map<std::string, double>> buffers_mib;  // device -> kind -> MiB
  std::map<std::string, int> kv_layers;                                // device -> KV cache layers
};

// What a ggml device's description says it emulates on the CPU ("llvmpipe (LLVM 19.1.7, 256
// bits)" -> "lavapipe, Mesa's Vulkan on the CPU"), or "" for a device that is hardware.
std::string GgmlDeviceEmulation(const std::string& description);

class LlamaLog {
 public:
  // Installs the callback for the whole process (llama.cpp has one logger; libmtmd, its
  // multimodal library, another, pointed at the same callback).
  void Install();
  static void OnMessage(ggml_log_level level, const char* text, void* user_data);

  // Errors logged since the last call, joined; used to explain a failed load.
  std::string TakeErrors();
  std::string cpu_variant() const;
  // The backend libmtmd last said it put a vision tower on, and its warnings since the last call
  // (operators the backend lacks, flash attention falling back to the CPU).
  std::string vision_backend() const;
  std::vector<std::string> TakeVisionWarnings();
  // Where the model loaded since the last call went: layers offloaded, buffers and KV layers.
  LlamaPlacementLog TakePlacement();

 private:
  void Line(ggml_log_level level, const std::string& line);

  mutable std::mutex mutex_;
  std::string partial_;
  ggml_log_level partial_level_ = GGML_LOG_LEVEL_INFO;
  std::vector<std::string> errors_;
  std::string cpu_variant_;
  std::string vision_backend_;
  std::vector<std::string> vision_warnings_;
  LlamaPlacementLog placement_;
};

}  // namespace edgebench
