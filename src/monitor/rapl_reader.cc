#include "monitor/rapl_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "monitor/file_channel_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

// Whether opening `path` for reading fails for want of permission (open, not access: access
// checks with root's full capabilities where the real user is root).
bool IsPermissionDenied(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return false;
  }
  return errno == EACCES || errno == EPERM;
}

}  // namespace

std::unique_ptr<SensorReader> OpenRaplReader(const SensorRoots& roots) {
  ReaderStatus status;
  status.reader = "rapl";
  const std::string powercap_dir = roots.Path("sys/class/powercap");
  if (!PathExists(powercap_dir)) {
    status.reason = "absent: " + powercap_dir +
                    " does not exist (no RAPL on this machine, or a container without it)";
    return MakeFileChannelReader(status, {});
  }
  // intel-rapl:0, intel-rapl:0:0, ...; not "intel-rapl" (the control type) nor intel-rapl-mmio
  // (the same package counter again, through MMIO).
  const std::vector<std::string> domains = ListDirectory(powercap_dir, "intel-rapl:");
  if (domains.empty()) {
    status.reason = "absent: no intel-rapl:* under " + powercap_dir + " (not an Intel or AMD CPU?)";
    return MakeFileChannelReader(status, {});
  }
  std::vector<FileChannel> files;
  for (const std::string& domain : domains) {
    const std::string dir = powercap_dir + "/" + domain;
    FileChannel file;
    file.path = dir + "/energy_uj";
    auto energy = ReadIntegerFile(file.path);
    if (!energy.ok()) {
      if (IsPermissionDenied(file.path)) {
        AddReason(status, "permission denied: " + file.path +
                              " is readable by root only since Linux 5.10 (CVE-2020-8694); run as"
                              " root or grant read access (e.g. chmod o+r) to measure energy");
      } else {
        AddReason(status, energy.error());
      }
      continue;
    }
    auto name = ReadWordFile(dir + "/name");
    const std::string label = name.ok() ? name.value() : domain;
    const bool subdomain = std::count(domain.begin(), domain.end(), ':') >= 2;
    file.channel.id = "rapl." + domain;
    file.channel.kind = ChannelKind::kEnergy;
    file.channel.source = RelativeToRoot(roots, file.path);
    file.channel.reader = "rapl";
    if (label == "psys") {
      file.channel.label = "psys (whole platform)";
    } else if (label == "dram") {
      file.channel.label = label;
      file.channel.device_total = true;  // DRAM's energy is outside the package's
    } else {
      file.channel.label = label;
      file.channel.part_of_total = subdomain;
      file.channel.device_total = !subdomain;
    }
    auto range = ReadIntegerFile(dir + "/max_energy_range_uj");
    if (range.ok()) {
      file.channel.wrap_uj = range.value();
    } else {
      AddReason(status, range.error() + " (wraparound of " + domain + " cannot be undone)");
    }
    files.push_back(file);
  }
  return MakeFileChannelReader(status, std::move(files));
}

}  // namespace edgebench
