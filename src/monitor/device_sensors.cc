#include "monitor/device_sensors.h"

#include "monitor/cpu_reader.h"
#include "monitor/cpufreq_reader.h"
#include "monitor/gpu_reader.h"
#include "monitor/hwmon_reader.h"
#include "monitor/nvml_reader.h"
#include "monitor/process_reader.h"
#include "monitor/rapl_reader.h"
#include "monitor/thermal_reader.h"

namespace edgebench {

SensorSet OpenDeviceSensors(const SensorRoots& roots) {
  std::vector<std::unique_ptr<SensorReader>> readers;
  readers.push_back(OpenProcessReader(roots));
  readers.push_back(OpenCpuReader(roots));
  readers.push_back(OpenCpufreqReader(roots));
  readers.push_back(OpenThermalReader(roots));
  readers.push_back(OpenHwmonReader(roots));
  readers.push_back(OpenRaplReader(roots));
  readers.push_back(OpenNvmlReader(roots));
  readers.push_back(OpenGpuReader(roots));
  return SensorSet(std::move(readers));
}

}  // namespace edgebench
