// Intel RAPL energy counters through powercap (sys/class/powercap/intel-rapl:*):
//   rapl.intel-rapl:P     a package (`name` package-P): energy_uj, microjoules, wrapping at
//                         max_energy_range_uj (Channel::wrap_uj); device_total
//   rapl.intel-rapl:P:S   its subdomains: core and uncore are inside the package's energy
//                         (part_of_total); dram is not (device_total, added beside the package)
//   rapl.intel-rapl:N     psys, the whole platform where the firmware has it: a total of its
//                         own, neither device_total nor part_of_total
// energy_uj is readable by root only since Linux 5.10 (CVE-2020-8694): the reason says so.
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenRaplReader(const SensorRoots& roots);

}  // namespace edgebench
