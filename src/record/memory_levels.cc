#include "record/memory_levels.h"

#include <algorithm>
#include <cstdio>

namespace edgebench {

std::vector<MemoryLevel> DeriveMemoryLevels(const MonitorRecord& m, const std::string& target,
                                            const std::string& emulated, int64_t measured_wall_ns,
                                            const std::map<std::string, std::string>& device_buffers) {
  std::vector<MemoryLevel> levels;
  MemoryLevel system{"system", "", ""};
  if (!m.memory_map.empty()) {
    int64_t most = 0;
    for (const MemorySnapshot& s : m.memory_map) most = std::max(most, s.rss_kb);
    char figure[120];
    std::snprintf(figure, sizeof figure, "the worker's smaps at %zu moments, at most %.1f MB resident",
                  m.memory_map.size(), static_cast<double>(most) / 1024.0);
    system.observed = figure;
  } else {
    system.reason = m.memory_map_reason.empty() ? "no snapshot was taken" : m.memory_map_reason;
  }
  levels.push_back(system);

  MemoryLevel device{"accelerator", "", ""};
  const MonitorSeries& s = m.series;
  for (size_t c = 0; c < s.channels.size() && c < s.values.size(); ++c) {
    if (s.channels[c].kind != ChannelKind::kDeviceMemory) continue;
    double most = -1;
    for (size_t i = 0; i < s.t_ns.size() && i < s.values[c].size(); ++i) {
      if (s.t_ns[i] < 0 || s.t_ns[i] > measured_wall_ns || !s.values[c][i]) continue;
      most = std::max(most, *s.values[c][i]);
    }
    if (most < 0) continue;
    char figure[160];
    std::snprintf(figure, sizeof figure, "%s%s at most %.1f MB in use over the measured phase (%s)",
                  device.observed.empty() ? "" : "; ", s.channels[c].label.c_str(), most / 1e6,
                  s.channels[c].id.c_str());
    device.observed += figure;
  }
  for (const auto& [on, buffers] : device_buffers) {
    device.observed += (device.observed.empty() ? "" : "; ") + std::string("the runtime's buffers on ") + on + ": " + buffers;
  }
  if (device.observed.empty()) {
    device.reason = !emulated.empty()
                        ? "the device is emulated (" + emulated +
                              "): its buffers are in this machine's memory, the system level above"
                        : "no device memory was read for " + target +
                              ": the runtime reports none, and no sensor here reads an accelerator's memory (NVML's "
                              "memory used, amdgpu's VRAM used); a CPU target has none";
  }
  levels.push_back(device);
  levels.push_back({"npu on-chip", "",
                    "not observable: no runtime edgebench runs reports an NPU's on-chip memory, and no sensor reads it"});
  return levels;
}

}  // namespace edgebench
