// llama.cpp and ggml log through one callback (llama_log_set), libmtmd through mtmd_log_set. It writes ~320 lines while
// loading even a tiny model; edgebench shows them only with --verbose, keeps warnings and
// errors for the record, and picks out which CPU backend variant ggml loaded.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <ggml.h>

namespace edgebench {

// "load_backend: loaded CPU backend from /usr/lib/.../libggml-cpu-haswell.so" -> that path.
std::optional<std::string> ParseCpuBackendVariant(const std::string& line);
// "clip_init: CLIP using CPU backend" -> "CPU": the backend libmtmd put a vision tower on.
std::optional<std::string> ParseVisionBackend(const std::string& line);

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

 private:
  void Line(ggml_log_level level, const std::string& line);

  mutable std::mutex mutex_;
  std::string partial_;
  ggml_log_level partial_level_ = GGML_LOG_LEVEL_INFO;
  std::vector<std::string> errors_;
  std::string cpu_variant_;
  std::string vision_backend_;
  std::vector<std::string> vision_warnings_;
};

}  // namespace edgebench
