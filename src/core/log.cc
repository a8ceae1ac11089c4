#include "core/log.h"

#include <atomic>
#include <cstdio>

namespace edgebench {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kWarning)};

const char* Name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarning: return "warning";
    case LogLevel::kError: return "error";
  }
  return "?";
}

}  // namespace

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int>(level)); }

LogLevel LogLevelForVerbosity(int count) {
  if (count <= 0) return LogLevel::kWarning;
  return count == 1 ? LogLevel::kInfo : LogLevel::kDebug;
}

bool LogEnabled(LogLevel level) { return static_cast<int>(level) >= g_level.load(); }

void Log(LogLevel level, const std::string& message) {
  if (!LogEnabled(level)) return;
  std::fprintf(stderr, "edgebench: %s: %s\n", Name(level), message.c_str());
}

}  // namespace edgebench
