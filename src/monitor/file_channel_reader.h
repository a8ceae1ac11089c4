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
  bool before_at = false;   // the integer before a '@' ("23@300000000Hz", ReadIntegerBeforeAt)
};

// A reader whose every channel is read from files as described by FileChannel. Read gives
// nullopt and the file's error ("PATH: No such file or directory") for a file that fails.
std::unique_ptr<SensorReader> MakeFileChannelReader(ReaderStatus status,
                                                    std::vector<FileChannel> files);

// Adds to `files` the channel read from `path` (absolute, SensorRoots::Path) when the file exists
// and holds an integer now; one that exists but does not read is said in `unreadable`. `channel`
// comes with its id, kind, label and reader; its source is set here. Returns the added channel
// (valid until the next is added), or nullptr.
Channel* AddReadableFileChannel(std::vector<FileChannel>& files, std::vector<std::string>& unreadable,
                                const SensorRoots& roots, const std::string& path, Channel channel,
                                double scale = 1, bool before_at = false);

// The value a FileChannel reads now, or the error naming the file that failed.
Result<double> ReadFileChannel(const FileChannel& file);

// Appends `why` to a status's reason, "; "-separated.
void AddReason(ReaderStatus& status, const std::string& why);

// `path` relative to the roots' root, for Channel::source ("sys/class/thermal/thermal_zone0/temp").
std::string RelativeToRoot(const SensorRoots& roots, const std::string& path);

}  // namespace edgebench
