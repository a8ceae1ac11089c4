// Where sensors are not: an empty tree gives every reader unavailable with a reason and no
// channel (never a zero), and this machine (a container) reports what it lacks honestly while
// the worker's memory and the cores' utilisation read.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "monitor/device_sensors.h"
#include "fake_tree.h"

namespace edgebench {
namespace {

using testing::FakeTree;

TEST(DeviceSensors, EmptyTreeGivesEveryReaderAbsentAndNoChannel) {
  FakeTree tree("empty");
  SensorRoots roots = tree.Roots();
  roots.nvml_library = tree.Path("libnvidia-ml.so.1");
  SensorSet set = OpenDeviceSensors(roots);
  EXPECT_TRUE(set.channels().empty());
  const std::vector<ReaderStatus> statuses = set.statuses();
  ASSERT_EQ(statuses.size(), 8u);
  for (const ReaderStatus& status : statuses) {
    EXPECT_FALSE(status.available) << status.reader;
    if (status.reader == "process") {  // names the files it could not read
      EXPECT_NE(status.reason.find(tree.Path("proc/self/status")), std::string::npos) << status.reason;
    } else {
      EXPECT_EQ(status.reason.rfind("absent: ", 0), 0u) << status.reader << ": " << status.reason;
    }
  }
  EXPECT_EQ(statuses[1].reason, "absent: " + tree.Path("proc/stat") + ": No such file or directory");
  EXPECT_EQ(statuses[2].reason, "absent: no cpufreq under " + tree.Path("sys/devices/system/cpu") +
                                    " (a VM or container usually has none)");
  EXPECT_EQ(statuses[3].reason, "absent: " + tree.Path("sys/class/thermal") + " does not exist");
  EXPECT_EQ(statuses[4].reason, "absent: " + tree.Path("sys/class/hwmon") + " does not exist");
  EXPECT_EQ(statuses[6].reason.rfind("absent: " + roots.nvml_library + " could not be opened (", 0), 0u)
      << statuses[6].reason;
  EXPECT_EQ(statuses[7].reason, "absent: no GPU or NPU clock under " + tree.Path("sys/class/devfreq") +
                                    " and no GPU counters under " + tree.Path("sys/class/drm") +
                                    " (a VM has none; NVIDIA GPUs are NVML's)");
  const SensorSample sample = set.Sample(1);
  EXPECT_TRUE(sample.values.empty());
  EXPECT_TRUE(set.failures().empty());
}

TEST(DeviceSensors, ThisMachineReportsAbsentReadersHonestly) {
  SensorSet set = OpenDeviceSensors(SensorRoots{});
  std::set<std::string> readers_with_channels;
  for (const Channel& c : set.channels()) readers_with_channels.insert(c.reader);
  for (const ReaderStatus& status : set.statuses()) {
    if (status.available) {
      EXPECT_TRUE(readers_with_channels.count(status.reader)) << status.reader;
    } else {
      EXPECT_FALSE(readers_with_channels.count(status.reader)) << status.reader;
      EXPECT_FALSE(status.reason.empty()) << status.reader;
    }
  }
  std::set<std::string> ids;
  for (const Channel& c : set.channels()) ids.insert(c.id);
  for (const char* id : {"process.rss", "process.rss_peak", "process.cpu", "system.mem_available",
                         "cpu0.util"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
  set.Sample(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const SensorSample sample = set.Sample(50'000'000);
  for (size_t i = 0; i < set.channels().size(); ++i) {
    const Channel& c = set.channels()[i];
    if (c.reader == "process" && c.kind != ChannelKind::kProcessCpu) {
      ASSERT_TRUE(sample.values[i].has_value()) << c.id;
      EXPECT_GT(*sample.values[i], 0) << c.id;
    }
    if (c.kind == ChannelKind::kCpuUtil && sample.values[i]) {
      EXPECT_GE(*sample.values[i], 0) << c.id;
      EXPECT_LE(*sample.values[i], 100) << c.id;
    }
  }
  // The worker's own files and proc/stat always read; a board's sensor may fail on its own.
  for (const ChannelFailure& failure : set.failures()) {
    const Channel& c = set.channels()[failure.channel];
    EXPECT_TRUE(c.reader != "process" && c.reader != "cpu") << c.id << ": " << failure.error;
  }
}

}  // namespace
}  // namespace edgebench
