// Device sensors (docs/monitoring.md): readers of /proc, /sys and NVML that each expose
// channels (one quantity of one thing: core 0's frequency, RAPL's package-0 energy counter) and
// say why when they find nothing or cannot read. The sampler (monitor/sampler.h) reads every
// channel of a SensorSet at a fixed rate beside the measured phase.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sensor_channel.h"

namespace edgebench {

// Where /proc and /sys are: "/" on a live machine; a copied or fake tree in tests, and a
// board's tree read elsewhere (--sysfs-root). Paths in channels are relative to `root`.
struct SensorRoots {
  std::string root = "/";
  // What NVML's loader opens (dlopen); tests point it at a fake library. Empty: no NVML.
  std::string nvml_library = "libnvidia-ml.so.1";

  // root joined with `relative` ("proc/stat", "sys/class/thermal").
  std::string Path(const std::string& relative) const;
};

// One source of channels. Discovery happens in the factory (monitor/device_sensors.h); Read is
// called at the sampling rate on the sampler's thread and must be quick (a few file reads).
class SensorReader {
 public:
  virtual ~SensorReader() = default;
  virtual const ReaderStatus& status() const = 0;
  virtual const std::vector<Channel>& channels() const = 0;
  // One value per channel into values[0..channels().size()), at harness time `t_ns` (for rates:
  // utilisation over the interval since the last Read). A channel that cannot be read this time
  // gets nullopt and, in errors[i], why ("...: No such file or directory"). A value not known
  // yet (a utilisation before its second reading) is nullopt with an empty error.
  virtual void Read(int64_t t_ns, std::optional<double>* values, std::string* errors) = 0;
};

}  // namespace edgebench
