// Utilisation of each core from proc/stat's "cpuN" lines:
//   cpuN.util   100 * (1 - delta(idle + iowait) / delta(total)) over the interval since the
//               last Read, where total is user+nice+system+idle+iowait+irq+softirq+steal
//               (guest time is already inside user and nice). The first Read gives nullopt.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "monitor/sensor.h"

namespace edgebench {

struct CoreTimes {
  uint64_t idle = 0;   // idle + iowait
  uint64_t total = 0;  // user through steal
};

// The "cpuN" lines of proc/stat's text, by core number (the aggregate "cpu" line is left out).
std::map<int, CoreTimes> ParseProcStat(const std::string& text);

std::unique_ptr<SensorReader> OpenCpuReader(const SensorRoots& roots);

}  // namespace edgebench
