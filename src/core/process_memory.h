// A process's resident memory as Linux reports it (/proc/PID/status).
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace edgebench {

struct ProcessMemory {
  int64_t rss_bytes = 0;   // VmRSS: resident now
  int64_t peak_bytes = 0;  // VmHWM: the most it was resident
};

// Of process `pid`, or of this process when 0; zeros when unreadable (the process is gone).
ProcessMemory ReadProcessMemory(pid_t pid = 0);

}  // namespace edgebench
