#include "monitor/gpu_reader.h"

#include <cctype>

#include "monitor/file_channel_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

// "card0", not "card0-HDMI-A-1" (a connector) or "renderD128".
bool IsCardDirectory(const std::string& name) {
  if (name.size() < 5) return false;
  for (size_t i = 4; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<SensorReader> OpenGpuReader(const SensorRoots& roots) {
  ReaderStatus status;
  status.reader = "gpu";
  std::vector<FileChannel> files;
  std::vector<std::string> unreadable;
  auto add = [&](const std::string& path, const std::string& id, ChannelKind kind, const std::string& label,
                 double scale) -> Channel* {
    if (!PathExists(path)) return nullptr;
    auto value = ReadIntegerFile(path);
    if (!value.ok()) {
      unreadable.push_back(value.error());
      return nullptr;
    }
    FileChannel file;
    file.path = path;
    file.scale = scale;
    file.channel.id = id;
    file.channel.kind = kind;
    file.channel.label = label;
    file.channel.source = RelativeToRoot(roots, path);
    file.channel.reader = "gpu";
    files.push_back(file);
    return &files.back().channel;
  };
  const std::string devfreq = roots.Path("sys/class/devfreq");
  for (const std::string& name : ListDirectory(devfreq)) {
    const std::string dir = devfreq + "/" + name;
    if (Channel* freq = add(dir + "/cur_freq", "devfreq." + name + ".freq", ChannelKind::kFrequency, name, 1e-3)) {
      auto max_hz = ReadIntegerFile(dir + "/max_freq");
      if (max_hz.ok()) freq->max_khz = max_hz.value() / 1000;
    }
  }
  const std::string drm = roots.Path("sys/class/drm");
  for (const std::string& name : ListDirectory(drm, "card")) {
    if (!IsCardDirectory(name)) continue;
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
  }
  if (files.empty()) {
    AddReason(status, "absent: no GPU or NPU clock under " + devfreq + " and no GPU counters under " + drm +
                          " (a VM has none; NVIDIA GPUs are NVML's)");
  }
  for (const std::string& why : unreadable) AddReason(status, why);
  return MakeFileChannelReader(status, std::move(files));
}

}  // namespace edgebench
