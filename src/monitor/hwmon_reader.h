// hwmon chips (sys/class/hwmon/hwmonK/, or its device/ on old kernels), each named by `name`:
//   hwmonK.tempN    tempN_input, milli-degrees Celsius
//   hwmonK.powerN   powerN_input (or powerN_average where there is no _input), microwatts
//   hwmonK.energyN  energyN_input, microjoules (a counter that does not wrap)
//   hwmonK.currN    currN_input, milliamperes
//   hwmonK.inN      inN_input, millivolts
// Labels are "<name>/<*_label, or the stem>". An ina3221 (Jetson's power monitor) also gives
//   hwmonK.rail_powerN   inN_input (bus mV) x currN_input (mA) = microwatts, N = 1..3,
// labelled from inN_label (VDD_IN, VDD_CPU_GPU_CV, VDD_SOC). A power channel labelled VDD_IN or
// POM_5V_IN is the board's input, Channel::device_total; the chip's other power channels are
// then part_of_total.
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenHwmonReader(const SensorRoots& roots);

}  // namespace edgebench
