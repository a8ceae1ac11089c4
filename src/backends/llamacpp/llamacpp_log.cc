#include "backends/llamacpp/llamacpp_log.h"

#include <llama.h>
#if EDGEBENCH_HAVE_MTMD
#include <mtmd-helper.h>
#endif

#include <cstdlib>
#include <regex>

#include "core/log.h"
#include "core/strings.h"

namespace edgebench {

std::optional<std::string> ParseCpuBackendVariant(const std::string& line) {
  static const std::regex kLoaded(R"(loaded CPU backend from (\S+))");
  std::smatch match;
  if (std::regex_search(line, match, kLoaded)) return match[1].str();
  return std::nullopt;
}

std::optional<std::string> ParseVisionBackend(const std::string& line) {
  static const std::regex kUsing(R"(CLIP using (\S+) backend)");
  std::smatch match;
  if (std::regex_search(line, match, kUsing)) return match[1].str();
  return std::nullopt;
}

std::optional<std::string> ParseOffloadedLayers(const std::string& line) {
  static const std::regex kOffloaded(R"(offloaded (\d+)/(\d+) layers to GPU)");
  std::smatch match;
  if (std::regex_search(line, match, kOffloaded)) return match[1].str() + "/" + match[2].str() + " layers";
  return std::nullopt;
}

std::optional<LlamaBufferLine> ParseBufferLine(const std::string& line) {
  static const std::regex kBuffer(R"((\S+)\s+(model|KV|compute|output) buffer size =\s*([0-9.]+) MiB)");
  std::smatch match;
  if (!std::regex_search(line, match, kBuffer)) return std::nullopt;
  return LlamaBufferLine{match[1].str(), match[2].str(), std::strtod(match[3].str().c_str(), nullptr)};
}

std::optional<std::string> ParseKvLayerDevice(const std::string& line) {
  static const std::regex kLayer(R"(llama_kv_cache: layer\s+\d+: dev = (\S+))");
  std::smatch match;
  if (std::regex_search(line, match, kLayer)) return match[1].str();
  return std::nullopt;
}

std::string GgmlDeviceEmulation(const std::string& description) {
  // Mesa's software Vulkan driver names its device after the llvmpipe rasterizer it runs on.
  if (description.find("llvmpipe") != std::string::npos) return "lavapipe, Mesa's Vulkan on the CPU";
  if (description.find("SwiftShader") != std::string::npos) return "SwiftShader, Google's Vulkan on the CPU";
  return "";
}

void LlamaLog::Install() {
  llama_log_set(&LlamaLog::OnMessage, this);
#if EDGEBENCH_HAVE_MTMD
  mtmd_helper_log_set(&LlamaLog::OnMessage, this);  // libmtmd and its helpers
#endif
}

void LlamaLog::OnMessage(ggml_log_level level, const char* text, void* user_data) {
  auto* self = static_cast<LlamaLog*>(user_data);
  std::lock_guard<std::mutex> lock(self->mutex_);
  if (level != GGML_LOG_LEVEL_CONT) self->partial_level_ = level;
  self->partial_ += text ? text : "";
  for (size_t nl; (nl = self->partial_.find('\n')) != std::string::npos;) {
    self->Line(self->partial_level_, self->partial_.substr(0, nl));
    self->partial_.erase(0, nl + 1);
  }
}

void LlamaLog::Line(ggml_log_level level, const std::string& line) {
  if (auto variant = ParseCpuBackendVariant(line)) cpu_variant_ = *variant;
  if (auto backend = ParseVisionBackend(line)) vision_backend_ = *backend;
  if (auto offload = ParseOffloadedLayers(line)) placement_.offload = *offload;
  if (auto buffer = ParseBufferLine(line)) placement_.buffers_mib[buffer->device][buffer->kind] += buffer->mib;
  if (auto kv = ParseKvLayerDevice(line)) ++placement_.kv_layers[*kv];
  if (line.find("unsupported operators") != std::string::npos || line.find("list of unsupported ops") != std::string::npos ||
      line.find("falling back to CPU") != std::string::npos) {
    vision_warnings_.push_back(TrimBlanks(line));
  }
  if (level == GGML_LOG_LEVEL_ERROR && !TrimBlanks(line).empty()) errors_.push_back(line);
  // Everything is shown with --verbose only: loading chatter, warnings about a random-weight
  // model's vocabulary, and errors, which reach the user in the record's error instead.
  if (LogEnabled(LogLevel::kDebug)) Log(LogLevel::kDebug, "llama.cpp: " + line);
}

std::string LlamaLog::TakeErrors() {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string joined = Join(errors_, "; ");
  errors_.clear();
  return joined;
}

std::string LlamaLog::vision_backend() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return vision_backend_;
}

std::vector<std::string> LlamaLog::TakeVisionWarnings() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> taken;
  taken.swap(vision_warnings_);
  return taken;
}

LlamaPlacementLog LlamaLog::TakePlacement() {
  std::lock_guard<std::mutex> lock(mutex_);
  LlamaPlacementLog taken;
  std::swap(taken, placement_);
  return taken;
}

std::string LlamaLog::cpu_variant() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cpu_variant_;
}

}  // namespace edgebench
