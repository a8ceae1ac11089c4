#include "monitor/cpufreq_reader.h"

#include <cstdlib>
#include <set>
#include <utility>

#include "monitor/file_channel_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenCpufreqReader(const SensorRoots& roots) {
  ReaderStatus status;
  status.reader = "cpufreq";
  const std::string cpu_dir = roots.Path("sys/devices/system/cpu");
  std::vector<FileChannel> files;
  std::vector<std::string> unreadable;
  std::set<int64_t> packages_seen;
  bool any_cpufreq = false;
  bool any_throttle_counter = false;
  for (const std::string& name : ListDirectory(cpu_dir, "cpu")) {
    if (!IsNumberedName(name, "cpu")) continue;
    const int cpu = std::atoi(name.c_str() + 3);
    const std::string core = cpu_dir + "/" + name;
    auto add = [&](const std::string& path, const std::string& id, ChannelKind kind,
                   const std::string& label) -> Channel* {
      Channel channel;
      channel.id = id;
      channel.kind = kind;
      channel.label = label;
      channel.reader = "cpufreq";
      channel.cpu = cpu;
      return AddReadableFileChannel(files, unreadable, roots, path, std::move(channel));
    };
    if (PathExists(core + "/cpufreq")) any_cpufreq = true;
    if (Channel* freq = add(core + "/cpufreq/scaling_cur_freq", name + ".freq",
                            ChannelKind::kFrequency, name)) {
      auto max_khz = ReadIntegerFile(core + "/cpufreq/cpuinfo_max_freq");
      if (max_khz.ok()) freq->max_khz = max_khz.value();
    }
    if (PathExists(core + "/thermal_throttle")) any_throttle_counter = true;
    add(core + "/thermal_throttle/core_throttle_count", name + ".core_throttle",
        ChannelKind::kThrottleCount, name + " core throttle");
    auto package = ReadIntegerFile(core + "/topology/physical_package_id");
    if (package.ok() && !packages_seen.insert(package.value()).second) continue;
    add(core + "/thermal_throttle/package_throttle_count", name + ".package_throttle",
        ChannelKind::kThrottleCount,
        package.ok() ? "package " + std::to_string(package.value()) + " throttle"
                     : name + " package throttle");
  }
  if (!any_cpufreq) {
    AddReason(status, "absent: no cpufreq under " + cpu_dir +
                          " (a VM or container usually has none)");
  }
  if (any_cpufreq && !any_throttle_counter) {
    // thermal_throttle is the x86 kernels' (Intel's and AMD's) counter; Arm kernels cap the
    // frequency through the thermal zones' cooling devices and count nothing.
    AddReason(status, "no throttle counters: no thermal_throttle under " + cpu_dir +
                          " (x86 kernels have them, Arm kernels do not); throttling shows as a"
                          " core's frequency below its cpuinfo_max_freq");
  }
  for (const std::string& why : unreadable) AddReason(status, why);
  return MakeFileChannelReader(status, std::move(files));
}

}  // namespace edgebench
