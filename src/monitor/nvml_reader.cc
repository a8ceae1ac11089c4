#include "monitor/nvml_reader.h"

#include <dlfcn.h>

#include <cstdint>
#include <type_traits>

#include "monitor/file_channel_reader.h"

namespace edgebench {
namespace {

// The few declarations of NVML's documented C API used here (nvml.h is not needed to build).
using NvmlReturn = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
using NvmlDevice = struct NvmlDeviceOpaque*;
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
struct NvmlUtilization {  // nvmlUtilization_t: percent of the last sample period (1/6 s to 1 s)
  unsigned gpu;     // one kernel or more was running
  unsigned memory;  // device memory was read or written
};
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU
constexpr int kNvmlClockSm = 1;         // NVML_CLOCK_SM
constexpr unsigned kNvmlNameLength = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE

struct NvmlApi {
  NvmlReturn (*init)();
  NvmlReturn (*shutdown)();
  NvmlReturn (*device_count)(unsigned*);
  NvmlReturn (*handle_by_index)(unsigned, NvmlDevice*);
  NvmlReturn (*name)(NvmlDevice, char*, unsigned);
  NvmlReturn (*power_usage)(NvmlDevice, unsigned*);
  NvmlReturn (*total_energy)(NvmlDevice, unsigned long long*);
  NvmlReturn (*temperature)(NvmlDevice, int, unsigned*);
  NvmlReturn (*clock_info)(NvmlDevice, int, unsigned*);
  NvmlReturn (*memory_info)(NvmlDevice, NvmlMemory*);
  NvmlReturn (*throttle_reasons)(NvmlDevice, unsigned long long*);
  NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*);
  const char* (*error_string)(NvmlReturn);
};

// What each channel asks of NVML.
enum class NvmlQuantity { kPower, kEnergy, kTemperature, kSmClock, kMemoryUsed, kThrottleReasons, kBusy };

struct NvmlChannel {
  NvmlDevice device = nullptr;
  NvmlQuantity quantity = NvmlQuantity::kPower;
};

class NvmlReader : public SensorReader {
 public:
  explicit NvmlReader(const SensorRoots& roots) {
    status_.reader = "nvml";
    if (roots.nvml_library.empty()) {
      status_.reason = "absent: NVML is not opened (no library named)";
      return;
    }
    library_ = ::dlopen(roots.nvml_library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) {
      const char* error = ::dlerror();
      status_.reason = "absent: " + roots.nvml_library + " could not be opened (" +
                       (error ? error : "unknown error") + "): no NVIDIA driver";
      return;
    }
    std::string missing;
    auto bind = [&](auto& function, const char* symbol) {
      using Function = std::remove_reference_t<decltype(function)>;
      function = reinterpret_cast<Function>(::dlsym(library_, symbol));
      if (function == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
    };
    bind(api_.init, "nvmlInit_v2");
    bind(api_.shutdown, "nvmlShutdown");
    bind(api_.device_count, "nvmlDeviceGetCount_v2");
    bind(api_.handle_by_index, "nvmlDeviceGetHandleByIndex_v2");
    bind(api_.name, "nvmlDeviceGetName");
    bind(api_.power_usage, "nvmlDeviceGetPowerUsage");
    bind(api_.total_energy, "nvmlDeviceGetTotalEnergyConsumption");
    bind(api_.temperature, "nvmlDeviceGetTemperature");
    bind(api_.clock_info, "nvmlDeviceGetClockInfo");
    bind(api_.memory_info, "nvmlDeviceGetMemoryInfo");
    bind(api_.throttle_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    bind(api_.utilization, "nvmlDeviceGetUtilizationRates");
    bind(api_.error_string, "nvmlErrorString");
    if (!missing.empty()) {
      status_.reason =
          roots.nvml_library + " lacks " + missing + " (a driver too old for NVML's v2 API?)";
      return;
    }
    const NvmlReturn init = api_.init();
    if (init != kNvmlSuccess) {
      status_.reason = "nvmlInit_v2 failed: " + ErrorText(init) + " (is the NVIDIA driver loaded?)";
      return;
    }
    initialized_ = true;
    unsigned count = 0;
    const NvmlReturn counted = api_.device_count(&count);
    if (counted != kNvmlSuccess) {
      status_.reason = "nvmlDeviceGetCount_v2 failed: " + ErrorText(counted);
      return;
    }
    for (unsigned index = 0; index < count; ++index) AddDevice(index);
    if (count == 0) status_.reason = "absent: NVML sees no GPU";
    status_.available = !channels_.empty();
  }

  ~NvmlReader() override {
    if (initialized_) api_.shutdown();
    if (library_ != nullptr) ::dlclose(library_);
  }
  NvmlReader(const NvmlReader&) = delete;
  NvmlReader& operator=(const NvmlReader&) = delete;

  const ReaderStatus& status() const override { return status_; }
  const std::vector<Channel>& channels() const override { return channels_; }

  void Read(int64_t /*t_ns*/, std::optional<double>* values, std::string* errors) override {
    for (size_t i = 0; i < channels_.size(); ++i) {
      double value = 0;
      const NvmlReturn result = Query(queries_[i], &value);
      if (result == kNvmlSuccess) {
        values[i] = value;
      } else {
        errors[i] = channels_[i].source + " on " + channels_[i].id + ": " + ErrorText(result);
      }
    }
  }

 private:
  std::string ErrorText(NvmlReturn result) const {
    const char* text = api_.error_string ? api_.error_string(result) : nullptr;
    return text ? text : "NVML error " + std::to_string(result);
  }

  // One reading in the channel's unit.
  NvmlReturn Query(const NvmlChannel& query, double* value) const {
    NvmlReturn result = kNvmlSuccess;
    switch (query.quantity) {
      case NvmlQuantity::kPower: {
        unsigned mw = 0;
        result = api_.power_usage(query.device, &mw);
        *value = static_cast<double>(mw) * 1e3;
        break;
      }
      case NvmlQuantity::kEnergy: {
        unsigned long long mj = 0;
        result = api_.total_energy(query.device, &mj);
        *value = static_cast<double>(mj) * 1e3;
        break;
      }
      case NvmlQuantity::kTemperature: {
        unsigned celsius = 0;
        result = api_.temperature(query.device, kNvmlTemperatureGpu, &celsius);
        *value = static_cast<double>(celsius) * 1e3;
        break;
      }
      case NvmlQuantity::kSmClock: {
        unsigned mhz = 0;
        result = api_.clock_info(query.device, kNvmlClockSm, &mhz);
        *value = static_cast<double>(mhz) * 1e3;
        break;
      }
      case NvmlQuantity::kMemoryUsed: {
        NvmlMemory memory{};
        result = api_.memory_info(query.device, &memory);
        *value = static_cast<double>(memory.used);
        break;
      }
      case NvmlQuantity::kThrottleReasons: {
        unsigned long long bits = 0;
        result = api_.throttle_reasons(query.device, &bits);
        *value = static_cast<double>(bits);
        break;
      }
      case NvmlQuantity::kBusy: {
        NvmlUtilization utilization{};
        result = api_.utilization(query.device, &utilization);
        *value = static_cast<double>(utilization.gpu);
        break;
      }
    }
    return result;
  }

  void AddDevice(unsigned index) {
    const std::string prefix = "nvml" + std::to_string(index);
    NvmlDevice device = nullptr;
    const NvmlReturn handle = api_.handle_by_index(index, &device);
    if (handle != kNvmlSuccess) {
      AddReason(status_, "nvmlDeviceGetHandleByIndex_v2(" + std::to_string(index) + ") failed: " +
                             ErrorText(handle));
      return;
    }
    char name[kNvmlNameLength] = {};
    const std::string gpu =
        api_.name(device, name, kNvmlNameLength) == kNvmlSuccess ? std::string(name) : prefix;
    struct Spec {
      NvmlQuantity quantity;
      const char* suffix;
      ChannelKind kind;
      const char* source;
      bool device_total;
    };
    const Spec specs[] = {
        {NvmlQuantity::kPower, "power", ChannelKind::kPower, "nvmlDeviceGetPowerUsage", true},
        {NvmlQuantity::kEnergy, "energy", ChannelKind::kEnergy,
         "nvmlDeviceGetTotalEnergyConsumption", true},
        {NvmlQuantity::kTemperature, "temp", ChannelKind::kTemperature,
         "nvmlDeviceGetTemperature", false},
        {NvmlQuantity::kSmClock, "sm_clock", ChannelKind::kFrequency, "nvmlDeviceGetClockInfo",
         false},
        {NvmlQuantity::kMemoryUsed, "memory_used", ChannelKind::kDeviceMemory,
         "nvmlDeviceGetMemoryInfo", false},
        {NvmlQuantity::kThrottleReasons, "throttle_reasons", ChannelKind::kThrottleReasons,
         "nvmlDeviceGetCurrentClocksThrottleReasons", false},
        {NvmlQuantity::kBusy, "busy", ChannelKind::kDeviceBusy, "nvmlDeviceGetUtilizationRates", false},
    };
    const size_t first = channels_.size();
    for (const Spec& spec : specs) {
      const NvmlChannel query{device, spec.quantity};
      double value = 0;
      const NvmlReturn result = Query(query, &value);
      if (result != kNvmlSuccess) {
        AddReason(status_, std::string(spec.source) + " on " + prefix + " (" + gpu +
                               "): " + ErrorText(result));
        continue;
      }
      Channel c;
      c.id = prefix + "." + spec.suffix;
      c.kind = spec.kind;
      c.label = gpu;
      c.source = spec.source;
      c.reader = "nvml";
      c.device_total = spec.device_total;
      channels_.push_back(c);
      queries_.push_back(query);
    }
    // With an energy counter, the GPU's total comes from it; its power is the same energy seen
    // as a rate, so it is shown but not added again (older GPUs have power only).
    bool has_energy = false;
    for (size_t i = first; i < channels_.size(); ++i) has_energy |= channels_[i].kind == ChannelKind::kEnergy;
    for (size_t i = first; i < channels_.size() && has_energy; ++i) {
      if (channels_[i].kind != ChannelKind::kPower) continue;
      channels_[i].device_total = false;
      channels_[i].part_of_total = true;
    }
  }

  ReaderStatus status_;
  std::vector<Channel> channels_;
  std::vector<NvmlChannel> queries_;
  void* library_ = nullptr;
  NvmlApi api_{};
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<SensorReader> OpenNvmlReader(const SensorRoots& roots) {
  return std::make_unique<NvmlReader>(roots);
}

}  // namespace edgebench
