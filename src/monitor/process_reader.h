// The worker's own memory and CPU, and the system's available memory:
//   process.rss, process.rss_peak   proc/self/status VmRSS, VmHWM
//   process.cpu                     the worker's CPU time over each interval, % of one core
//                                   (CLOCK_PROCESS_CPUTIME_ID on a live machine, ns exact;
//                                   proc/self/stat utime+stime under another root)
//   system.mem_available            proc/meminfo MemAvailable
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenProcessReader(const SensorRoots& roots);

}  // namespace edgebench
