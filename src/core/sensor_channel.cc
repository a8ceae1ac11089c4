#include "core/sensor_channel.h"

namespace edgebench {

namespace {

struct KindInfo {
  ChannelKind kind;
  const char* name;
  const char* unit;
};

constexpr KindInfo kKinds[] = {
    {ChannelKind::kRss, "rss", "B"},
    {ChannelKind::kRssPeak, "rss_peak", "B"},
    {ChannelKind::kMemAvailable, "mem_available", "B"},
    {ChannelKind::kCpuUtil, "cpu_util", "%"},
    {ChannelKind::kProcessCpu, "process_cpu", "%"},
    {ChannelKind::kFrequency, "frequency", "kHz"},
    {ChannelKind::kThrottleCount, "throttle_count", "count"},
    {ChannelKind::kTemperature, "temperature", "mC"},
    {ChannelKind::kEnergy, "energy", "uJ"},
    {ChannelKind::kPower, "power", "uW"},
    {ChannelKind::kCurrent, "current", "mA"},
    {ChannelKind::kVoltage, "voltage", "mV"},
    {ChannelKind::kThrottleReasons, "throttle_reasons", "bits"},
    {ChannelKind::kDeviceMemory, "device_memory", "B"},
    {ChannelKind::kDeviceBusy, "device_busy", "%"},
};

}  // namespace

const char* ChannelKindName(ChannelKind kind) {
  for (const KindInfo& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "unknown";
}

std::optional<ChannelKind> ParseChannelKind(const std::string& name) {
  for (const KindInfo& k : kKinds) {
    if (name == k.name) return k.kind;
  }
  return std::nullopt;
}

const char* ChannelUnit(ChannelKind kind) {
  for (const KindInfo& k : kKinds) {
    if (k.kind == kind) return k.unit;
  }
  return "";
}

}  // namespace edgebench
