#include "backends/ort/ort_log.h"

#include <algorithm>
#include <regex>

#include "core/log.h"
#include "core/strings.h"

namespace edgebench {

std::optional<std::pair<std::string, int>> ParseOrtPlacementLine(const std::string& message) {
  static const std::regex kPattern(R"(placed on \[([A-Za-z0-9_]+)\]\. Number of nodes: (\d+))");
  std::smatch match;
  if (!std::regex_search(message, match, kPattern)) return std::nullopt;
  return std::make_pair(match[1].str(), std::stoi(match[2].str()));
}

std::optional<std::pair<std::string, std::string>> ParseOrtPlacedNodeLine(
    const std::string& message) {
  static const std::regex kPattern(R"(^\s+([A-Za-z0-9_.]+) \((.*)\)\s*$)");
  std::smatch match;
  if (!std::regex_match(message, match, kPattern)) return std::nullopt;
  return std::make_pair(match[1].str(), match[2].str());
}

std::string OrtProviderToDevice(const std::string& provider) {
  static constexpr char kSuffix[] = "ExecutionProvider";
  constexpr size_t kSuffixSize = sizeof(kSuffix) - 1;
  std::string name = provider;
  if (name.size() > kSuffixSize && name.compare(name.size() - kSuffixSize, kSuffixSize, kSuffix) == 0) {
    name.resize(name.size() - kSuffixSize);
  }
  return ToLowerAscii(name);
}

void OrtLogCapture::Begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  capturing_ = true;
  listing_provider_.clear();
  captured_ = {};
}

OrtLogCapture::Captured OrtLogCapture::End() {
  std::lock_guard<std::mutex> lock(mutex_);
  capturing_ = false;
  return std::move(captured_);
}

void OrtLogCapture::OnMessage(void* param, OrtLoggingLevel severity, const char* /*category*/,
                              const char* /*logid*/, const char* code_location,
                              const char* message) {
  auto* self = static_cast<OrtLogCapture*>(param);
  const std::string text = message ? message : "";
  bool captured = false;
  {
    std::lock_guard<std::mutex> lock(self->mutex_);
    if (self->capturing_) {
      captured = true;
      if (auto placed = ParseOrtPlacementLine(text)) {
        self->captured_.nodes_by_provider[placed->first] += placed->second;
        self->listing_provider_ = placed->first;
      } else if (auto node = self->listing_provider_.empty() ? std::nullopt
                                                             : ParseOrtPlacedNodeLine(text)) {
        const std::string& provider = self->listing_provider_;
        self->captured_.op_types_by_provider[provider][node->first] += 1;
        if (node->second.rfind(provider + "_", 0) == 0 ||
            node->first.rfind(provider + "_", 0) == 0) {
          self->captured_.fused_nodes_by_provider[provider] += 1;
        }
      } else {
        self->listing_provider_.clear();
      }
      // Warnings during session creation become notes of the session's record (the
      // placement column already shows partial fallback); duplicates are kept once.
      const std::string note = "ONNX Runtime: " + text;
      auto& notes = self->captured_.notes;
      if (severity >= ORT_LOGGING_LEVEL_WARNING &&
          std::find(notes.begin(), notes.end(), note) == notes.end()) {
        notes.push_back(note);
      }
    }
  }
  LogLevel level = severity >= ORT_LOGGING_LEVEL_ERROR     ? LogLevel::kError
                   : severity >= ORT_LOGGING_LEVEL_WARNING ? LogLevel::kWarning
                                                           : LogLevel::kDebug;
  if (captured && level == LogLevel::kWarning) level = LogLevel::kDebug;
  // fallback=fail's refusal reaches the record as the session's error, with the op types.
  if (captured && text.find("fallback to CPU EP has been explicitly disabled") != std::string::npos) {
    level = LogLevel::kDebug;
  }
  if (LogEnabled(level)) {
    Log(level, std::string("onnxruntime: ") +
                   (level == LogLevel::kDebug && code_location ? std::string(code_location) + ": "
                                                               : "") +
                   text);
  }
}

}  // namespace edgebench
