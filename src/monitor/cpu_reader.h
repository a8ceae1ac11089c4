// Utilisation of each core from proc/stat's "cpuN" lines:
//   cpuN.util   100 * (1 - delta(idle + iowait) / delta(total)) over the interval since the
//               last Read, where total is user+nice+system+idle+iowait+irq+softirq+steal
//               (guest time is already inside user and nice). The first Read gives nullopt.
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenCpuReader(const SensorRoots& roots);

}  // namespace edgebench
