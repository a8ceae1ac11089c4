// edgebench's own diagnostics on stderr. Results never go here. The level is set once by the
// CLI at start-up (an atomic, so runtimes' logging threads may call in at any time):
// warnings by default, info with -v (what runs, progress), debug with -vv (runtimes' own logs).
#pragma once

#include <string>

namespace edgebench {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

void SetLogLevel(LogLevel level);
// The level `count` -v flags ask for: 0 warnings, 1 info, 2 or more debug.
LogLevel LogLevelForVerbosity(int count);
bool LogEnabled(LogLevel level);
// Writes "edgebench: <level>: <message>" when the level is enabled.
void Log(LogLevel level, const std::string& message);

}  // namespace edgebench
