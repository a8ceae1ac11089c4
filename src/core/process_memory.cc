#include "core/process_memory.h"

#include <cstdlib>
#include <fstream>
#include <string>

namespace edgebench {

ProcessMemory ReadProcessMemory(pid_t pid) {
  std::ifstream in("/proc/" + (pid == 0 ? std::string("self") : std::to_string(pid)) + "/status");
  ProcessMemory memory;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) memory.rss_bytes = std::atoll(line.c_str() + 6) * 1024;
    if (line.rfind("VmHWM:", 0) == 0) memory.peak_bytes = std::atoll(line.c_str() + 6) * 1024;
  }
  return memory;
}

}  // namespace edgebench
