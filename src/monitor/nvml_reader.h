// NVIDIA GPUs through NVML, opened at run time (dlopen of SensorRoots::nvml_library, normally
// libnvidia-ml.so.1 from the driver), so edgebench has no build dependency on CUDA:
//   nvmlN.power             nvmlDeviceGetPowerUsage, mW -> microwatts; device_total
//   nvmlN.energy            nvmlDeviceGetTotalEnergyConsumption, mJ -> microjoules; device_total
//   nvmlN.temp              nvmlDeviceGetTemperature(GPU), degrees C -> milli-degrees
//   nvmlN.sm_clock          nvmlDeviceGetClockInfo(SM), MHz -> kHz
//   nvmlN.memory_used       nvmlDeviceGetMemoryInfo's used, bytes
//   nvmlN.throttle_reasons  nvmlDeviceGetCurrentClocksThrottleReasons, NVML's bit set
// A quantity the GPU does not support (energy before Volta) is left out, and the reason says so.
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenNvmlReader(const SensorRoots& roots);

}  // namespace edgebench
