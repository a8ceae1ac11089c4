#include "backends/llamacpp/llamacpp_log.h"

#include <llama.h>

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

void LlamaLog::Install() { llama_log_set(&LlamaLog::OnMessage, this); }

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
  if (level == GGML_LOG_LEVEL_ERROR) errors_.push_back(line);
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

std::string LlamaLog::cpu_variant() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cpu_variant_;
}

}  // namespace edgebench
