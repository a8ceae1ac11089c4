// The common shape of the sysfs readers (cpufreq, thermal, hwmon, RAPL): each channel is one
// integer file, scaled into the channel's unit, or the product of two (a rail's bus voltage
// times its current). Discovery belongs to each reader; reading is the same for all.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "monitor/sensor.h"

namespace edgebench {

struct FileChannel {
  Channel channel;
  std::string path;         // the integer file, absolute (SensorRoots::Path)
  std::string second_path;  // when not empty: value = integer(path) * integer(second_path) * scale
  double scale = 1;         // value = integer(path) * scale
};

// A reader whose every channel is read from files as described by FileChannel. Read gives
// nullopt and the file's error ("PATH: No such file or directory") for a file that fails.
std::unique_ptr<SensorReader> MakeFileChannelReader(ReaderStatus status,
                                                    std::vector<FileChannel> files);

// The value a FileChannel reads now, or the error naming the file that failed.
Result<double> ReadFileChannel(const FileChannel& file);

// Appends `why` to a status's reason, "; "-separated.
void AddReason(ReaderStatus& status, const std::string& why);

// `path` relative to the roots' root, for Channel::source ("sys/class/thermal/thermal_zone0/temp").
std::string RelativeToRoot(const SensorRoots& roots, const std::string& path);

}  // namespace edgebench
