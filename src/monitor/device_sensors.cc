#include "monitor/device_sensors.h"

#include "monitor/process_reader.h"

namespace edgebench {

SensorSet OpenDeviceSensors(const SensorRoots& roots) {
  std::vector<std::unique_ptr<SensorReader>> readers;
  readers.push_back(OpenProcessReader(roots));
  return SensorSet(std::move(readers));
}

}  // namespace edgebench
