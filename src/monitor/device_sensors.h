// The readers of a machine: every one edgebench has, each available or saying why not.
#pragma once

#include "monitor/sensor_set.h"

namespace edgebench {

// Discovers every reader's channels under `roots`. Never fails: a reader that finds nothing is
// in the set's statuses with its reason.
SensorSet OpenDeviceSensors(const SensorRoots& roots);

}  // namespace edgebench
