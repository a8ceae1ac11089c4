// Each core's frequency and, on x86, its thermal-throttle counters:
//   cpuN.freq              sys/devices/system/cpu/cpuN/cpufreq/scaling_cur_freq, kHz (the
//                          P-state the governor asked for); Channel::max_khz from
//                          cpuinfo_max_freq
//   cpuN.core_throttle     .../cpuN/thermal_throttle/core_throttle_count, events since boot
//   cpuN.package_throttle  .../cpuN/thermal_throttle/package_throttle_count: one per physical
//                          package (its first core) where topology/physical_package_id says
//                          which, else one per core
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenCpufreqReader(const SensorRoots& roots);

}  // namespace edgebench
