#include "plan/path_expansion.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

namespace edgebench {

std::optional<std::string> ProcessEnvironment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

Result<std::string> ExpandPath(const std::string& raw, const EnvironmentLookup& getenv,
                               const std::string& base_dir) {
  std::string expanded;
  size_t pos = 0;
  if (raw == "~" || raw.rfind("~/", 0) == 0) {
    const auto home = getenv("HOME");
    if (!home) return Status::Error("cannot expand '~' in '" + raw + "': HOME is not set");
    expanded = *home;
    pos = 1;
  }
  while (pos < raw.size()) {
    const size_t dollar = raw.find("${", pos);
    if (dollar == std::string::npos) {
      expanded += raw.substr(pos);
      break;
    }
    expanded += raw.substr(pos, dollar - pos);
    const size_t close = raw.find('}', dollar);
    if (close == std::string::npos) {
      return Status::Error("unterminated '${' in '" + raw + "': write ${NAME}");
    }
    const std::string name = raw.substr(dollar + 2, close - dollar - 2);
    const bool valid_name = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!valid_name) return Status::Error("bad variable '${" + name + "}' in '" + raw + "'");
    std::optional<std::string> value = getenv(name);
    if (!value && name == "EDGEBENCH_CACHE") {
      const auto home = getenv("HOME");
      if (!home) {
        return Status::Error("cannot expand ${EDGEBENCH_CACHE} in '" + raw +
                             "': neither EDGEBENCH_CACHE nor HOME is set");
      }
      value = *home + "/.cache/edgebench";
    }
    if (!value) {
      return Status::Error("environment variable " + name + " (in '" + raw +
                           "') is not set; set it or write the path out");
    }
    expanded += *value;
    pos = close + 1;
  }
  if (expanded.empty()) return Status::Error("the path '" + raw + "' expands to nothing");
  std::filesystem::path path(expanded);
  if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
  return path.lexically_normal().string();
}

}  // namespace edgebench
