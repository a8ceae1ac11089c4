// edgebench's own diagnostics on stderr. Results never go here. The level is set once by the
// CLI at start-up (an atomic, so runtimes' logging threads may call in at any time).
#pragma once

#include <string>

namespace edgebench {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);
// Writes "edgebench: <level>: <message>" when the level is enabled.
void Log(LogLevel level, const std::string& message);

}  // namespace edgebench
