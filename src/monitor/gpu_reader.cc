#include "monitor/gpu_reader.h"

#include <utility>

#include "monitor/file_channel_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenGpuReader(const SensorRoots& roots) {
  ReaderStatus status;
  status.reader = "gpu";
  std::vector<FileChannel> files;
  std::vector<std::string> unreadable;
  auto add = [&](const std::string& path, const std::string& id, ChannelKind kind, const std::string& label,
                 double scale, bool before_at = false) -> Channel* {
    Channel channel;
    channel.id = id;
    channel.kind = kind;
    channel.label = label;
    channel.reader = "gpu";
    return AddReadableFileChannel(files, unreadable, roots, path, std::move(channel), scale, before_at);
  };
  const std::string devfreq = roots.Path("sys/class/devfreq");
  for (const std::string& name : ListDirectory(devfreq)) {
    const std::string dir = devfreq + "/" + name;
    if (Channel* freq = add(dir + "/cur_freq", "devfreq." + name + ".freq", ChannelKind::kFrequency, name, 1e-3)) {
      auto max_hz = ReadIntegerFile(dir + "/max_freq");
      if (max_hz.ok()) freq->max_khz = max_hz.value() / 1000;
    }
    // Busy share: a Rockchip vendor kernel's devfreq "load" ("23@300000000Hz", percent), else a
    // Jetson's GPU "load" on the device itself (per mille).
    if (!add(dir + "/load", "devfreq." + name + ".busy", ChannelKind::kDeviceBusy, name, 1, true)) {
      add(dir + "/device/load", "devfreq." + name + ".busy", ChannelKind::kDeviceBusy, name, 0.1);
    }
  }
  const std::string drm = roots.Path("sys/class/drm");
  for (const std::string& name : ListDirectory(drm, "card")) {
    if (!IsNumberedName(name, "card")) continue;  // not a connector (card0-HDMI-A-1)
    const std::string dir = drm + "/" + name;
    std::string driver = name;
    if (auto uevent = ReadSmallTextFile(dir + "/device/uevent"); uevent.ok()) {
      const size_t at = uevent.value().find("DRIVER=");
      if (at != std::string::npos) {
        driver = uevent.value().substr(at + 7, uevent.value().find('\n', at) - at - 7);
      }
    }
    if (Channel* freq = add(dir + "/gt_cur_freq_mhz", name + ".freq", ChannelKind::kFrequency, driver + " GT", 1000)) {
      auto max_mhz = ReadIntegerFile(dir + "/gt_max_freq_mhz");
      if (max_mhz.ok()) freq->max_khz = max_mhz.value() * 1000;
    }
    add(dir + "/device/mem_info_vram_used", name + ".vram_used", ChannelKind::kDeviceMemory, driver + " VRAM", 1);
    add(dir + "/device/gpu_busy_percent", name + ".busy", ChannelKind::kDeviceBusy, driver + " busy", 1);
  }
  if (files.empty()) {
    AddReason(status, "absent: no GPU or NPU clock under " + devfreq + " and no GPU counters under " + drm +
                          " (a VM has none; NVIDIA GPUs are NVML's)");
  }
  for (const std::string& why : unreadable) AddReason(status, why);
  return MakeFileChannelReader(status, std::move(files));
}

}  // namespace edgebench
