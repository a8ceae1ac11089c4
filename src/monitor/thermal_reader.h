// Thermal zones (hwmon's temp*_input are read by the hwmon reader):
//   thermal.<zone>   sys/class/thermal/thermal_zoneN/temp, milli-degrees Celsius; label from
//                    its `type` (x86_pkg_temp, acpitz, cpu-thermal); Channel::trips from
//                    trip_point_K_temp and trip_point_K_type
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenThermalReader(const SensorRoots& roots);

}  // namespace edgebench
