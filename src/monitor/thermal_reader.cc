#include "monitor/thermal_reader.h"

#include "monitor/file_channel_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenThermalReader(const SensorRoots& roots) {
  ReaderStatus status;
  status.reader = "thermal";
  const std::string thermal_dir = roots.Path("sys/class/thermal");
  const std::vector<std::string> zones = ListDirectory(thermal_dir, "thermal_zone");
  if (zones.empty()) {
    status.reason = PathExists(thermal_dir)
                        ? "absent: no thermal_zone* under " + thermal_dir
                        : "absent: " + thermal_dir + " does not exist";
    return MakeFileChannelReader(status, {});
  }
  std::vector<FileChannel> files;
  for (const std::string& zone : zones) {
    const std::string dir = thermal_dir + "/" + zone;
    FileChannel file;
    file.path = dir + "/temp";
    // A zone whose sensor is off (a Wi-Fi card's, with the interface down) fails to read.
    auto temp = ReadIntegerFile(file.path);
    if (!temp.ok()) {
      AddReason(status, temp.error());
      continue;
    }
    auto type = ReadWordFile(dir + "/type");
    file.channel.id = "thermal." + zone;
    file.channel.kind = ChannelKind::kTemperature;
    file.channel.label = type.ok() ? type.value() : zone;
    file.channel.source = RelativeToRoot(roots, file.path);
    file.channel.reader = "thermal";
    for (int k = 0;; ++k) {
      const std::string trip = dir + "/trip_point_" + std::to_string(k);
      if (!PathExists(trip + "_temp")) break;
      auto trip_temp = ReadIntegerFile(trip + "_temp");
      auto trip_type = ReadWordFile(trip + "_type");
      if (!trip_temp.ok() || !trip_type.ok()) {
        AddReason(status, trip_temp.ok() ? trip_type.error() : trip_temp.error());
        continue;
      }
      file.channel.trips.push_back({trip_temp.value(), trip_type.value()});
    }
    files.push_back(file);
  }
  return MakeFileChannelReader(status, std::move(files));
}

}  // namespace edgebench
