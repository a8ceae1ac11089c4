// What a device monitor's channel is (its kind and unit, where it is read, trip points), what a
// reader found, and a channel that stopped reading: plain data, kept in the record's monitor
// section (record/monitor_record.h). The readers are in monitor/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// What a channel measures, and so its unit (ChannelUnit).
enum class ChannelKind {
  kRss,             // bytes: resident memory of the worker (VmRSS)
  kRssPeak,         // bytes: the worker's peak resident memory (VmHWM)
  kMemAvailable,    // bytes: the system's available memory (MemAvailable)
  kCpuUtil,         // percent of one core, over the interval since the last sample
  kProcessCpu,      // percent of one core used by the worker (100 = one core busy)
  kFrequency,       // kHz: scaling_cur_freq (the requested P-state), or a GPU's SM clock
  kThrottleCount,   // events since boot: x86 thermal_throttle counters
  kTemperature,     // milli-degrees Celsius
  kEnergy,          // microjoules: a counter, wrapping at Channel::wrap_uj when that is > 0
  kPower,           // microwatts
  kCurrent,         // milliamperes
  kVoltage,         // millivolts
  kThrottleReasons, // bit set: NVML's clocks-throttle reasons
  kDeviceMemory,    // bytes: an accelerator's memory in use
  kDeviceBusy,      // percent of the time an accelerator was busy (NVML's GPU utilisation, amdgpu's
                    // gpu_busy_percent, a Jetson's or Rockchip's load), over the device's own window
};
const char* ChannelKindName(ChannelKind kind);  // "rss", "cpu_util", "frequency", ...
std::optional<ChannelKind> ParseChannelKind(const std::string& name);
const char* ChannelUnit(ChannelKind kind);      // "B", "%", "kHz", "count", "mC", "uJ", ...

struct TripPoint {
  int64_t temp_mc = 0;
  std::string type;  // "passive", "active", "hot", "critical"
};

struct Channel {
  std::string id;      // unique in a set and stable: "cpu0.freq", "rapl.package-0", "hwmon1.power1"
  ChannelKind kind = ChannelKind::kRss;
  std::string label;   // what the device calls it: "x86_pkg_temp", "package-0", "VDD_IN"
  std::string source;  // the file (relative to the root) or the API call it is read from
  std::string reader;  // the reader that owns it ("process", "cpu", "cpufreq", "thermal", ...)
  int cpu = -1;        // per-core channels: the core's number
  int64_t max_khz = 0;  // kFrequency: cpuinfo_max_freq; 0 when unknown
  int64_t wrap_uj = 0;  // kEnergy: the counter wraps to 0 after this (max_energy_range_uj); 0: never
  // kEnergy and kPower: a part of another channel's total (RAPL's core inside its package, a
  // sub-rail): shown, but not added into the device's total energy.
  bool part_of_total = false;
  // kEnergy and kPower: what the device's total energy is taken from when present (RAPL
  // packages, a board's input rail, a GPU's counter).
  bool device_total = false;
  std::vector<TripPoint> trips;  // kTemperature: the zone's trip points
};

// What a reader found. A reader that cannot read says why, in words a user can act on:
// "absent: /sys/class/powercap does not exist (no RAPL on this machine or in this container)",
// "permission denied: .../energy_uj is readable by root only since Linux 5.10 (CVE-2020-8694);
// run as root or grant read access to measure energy".
struct ReaderStatus {
  std::string reader;
  bool available = false;  // at least one channel reads
  std::string reason;      // why not, or what it could not read beside what it did
};

// A channel that stopped reading: when first, and why. A channel that reads again later keeps
// its first failure (the series shows the gap as nulls).
struct ChannelFailure {
  size_t channel = 0;
  int64_t t_ns = 0;
  std::string error;
};

}  // namespace edgebench
