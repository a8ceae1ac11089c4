// A stand-in for libnvidia-ml.so.1 with fixed values, so the NVML reader is tested where no
// NVIDIA driver is: two GPUs; GPU 1 does not support the energy counter (as before Volta). Each
// call of the energy counter adds 1000 mJ and each power reading 1 W, so a second sample differs;
// nvmlInit_v2 starts the counters again (5,000,000 mJ; 150 W and 160 W), so each reader sees the
// same sequence.
// EDGEBENCH_FAKE_NVML_INIT_FAILS=1 makes nvmlInit_v2 fail as it does without the driver.
#include <cstdlib>
#include <cstring>

namespace {

struct FakeDevice {
  int index;
};
FakeDevice devices[2] = {{0}, {1}};
unsigned long long energy_mj = 0;
unsigned power_mw[2] = {0, 0};
int initialized = 0;
int shutdowns = 0;

constexpr int kSuccess = 0;
constexpr int kUninitialized = 1;
constexpr int kInvalidArgument = 2;
constexpr int kNotSupported = 3;
constexpr int kDriverNotLoaded = 9;

int Index(void* device) { return static_cast<FakeDevice*>(device)->index; }

}  // namespace

extern "C" {

struct FakeNvmlMemory {
  unsigned long long total, free, used;
};

int nvmlInit_v2() {
  const char* fail = std::getenv("EDGEBENCH_FAKE_NVML_INIT_FAILS");
  if (fail != nullptr && std::strcmp(fail, "1") == 0) return kDriverNotLoaded;
  if (initialized++ == 0) {
    energy_mj = 5000000;
    power_mw[0] = 150000;
    power_mw[1] = 160000;
  }
  return kSuccess;
}
int nvmlShutdown() {
  if (initialized == 0) return kUninitialized;
  --initialized;
  ++shutdowns;
  return kSuccess;
}
// For the test: how many times nvmlShutdown ran.
int fakeNvmlShutdownCount() { return shutdowns; }
int nvmlDeviceGetCount_v2(unsigned* count) {
  *count = 2;
  return initialized ? kSuccess : kUninitialized;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** device) {
  if (index >= 2) return kInvalidArgument;
  *device = &devices[index];
  return kSuccess;
}
int nvmlDeviceGetName(void* device, char* name, unsigned length) {
  std::strncpy(name, Index(device) == 0 ? "Fake GPU A100" : "Fake GPU P4", length);
  return kSuccess;
}
int nvmlDeviceGetPowerUsage(void* device, unsigned* milliwatts) {
  *milliwatts = power_mw[Index(device)];
  power_mw[Index(device)] += 1000;
  return kSuccess;
}
int nvmlDeviceGetTotalEnergyConsumption(void* device, unsigned long long* millijoules) {
  if (Index(device) == 1) return kNotSupported;
  *millijoules = energy_mj;
  energy_mj += 1000;
  return kSuccess;
}
int nvmlDeviceGetTemperature(void* device, int sensor, unsigned* celsius) {
  if (sensor != 0) return kInvalidArgument;
  *celsius = 61 + static_cast<unsigned>(Index(device));
  return kSuccess;
}
int nvmlDeviceGetClockInfo(void* device, int clock, unsigned* mhz) {
  if (clock != 1) return kInvalidArgument;
  *mhz = Index(device) == 0 ? 1410 : 1113;
  return kSuccess;
}
int nvmlDeviceGetMemoryInfo(void* device, FakeNvmlMemory* memory) {
  memory->total = 80ull << 30;
  memory->used = Index(device) == 0 ? (3ull << 30) : (1ull << 20);
  memory->free = memory->total - memory->used;
  return kSuccess;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(void* device, unsigned long long* reasons) {
  *reasons = Index(device) == 0 ? 0x1ull : 0x20ull;  // GPU idle; SW thermal slowdown
  return kSuccess;
}
struct FakeNvmlUtilization {
  unsigned gpu;
  unsigned memory;
};
int nvmlDeviceGetUtilizationRates(void* device, FakeNvmlUtilization* utilization) {
  utilization->gpu = Index(device) == 0 ? 87 : 12;
  utilization->memory = 40;
  return kSuccess;
}
const char* nvmlErrorString(int result) {
  switch (result) {
    case kSuccess: return "Success";
    case kUninitialized: return "Uninitialized";
    case kInvalidArgument: return "Invalid Argument";
    case kNotSupported: return "Not Supported";
    case kDriverNotLoaded: return "Driver Not Loaded";
    default: return "Unknown Error";
  }
}

}  // extern "C"
