// `edgebench devices --sensors` as a user runs it, on a laptop's tree copied elsewhere.
#include <gtest/gtest.h>

#include <sstream>

#include "../test_util.h"
#include "fake_tree.h"

namespace edgebench {
namespace {

using testing::BuildLaptop;
using testing::Executable;
using testing::FakeTree;
using testing::RunCommand;

// The line of the table that starts with `first_column`, or "".
std::string LineStartingWith(const std::string& output, const std::string& first_column) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(first_column + " ", 0) == 0) return line;
  }
  return "";
}

TEST(DevicesSensorsCli, ListsReadersAndChannelsWithValuesFromTheTree) {
  FakeTree tree("cli_laptop");
  BuildLaptop(tree);
  tree.Remove("sys/class/thermal/thermal_zone1/temp");  // a zone whose sensor is off
  auto r = RunCommand(Executable() + " devices --sensors --sysfs-root " + tree.root() + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("null:spin"), std::string::npos) << r.output;  // backends first
  EXPECT_NE(r.output.find("sensors under " + tree.root()), std::string::npos) << r.output;

  const std::string cpufreq = LineStartingWith(r.output, "cpufreq");
  EXPECT_NE(cpufreq.find("yes"), std::string::npos) << r.output;
  const std::string hwmon = LineStartingWith(r.output, "hwmon");
  EXPECT_NE(hwmon.find("no"), std::string::npos) << r.output;
  EXPECT_NE(hwmon.find("absent: " + tree.Path("sys/class/hwmon") + " does not exist"), std::string::npos)
      << r.output;
  const std::string thermal = LineStartingWith(r.output, "thermal");
  EXPECT_TRUE(LineStartingWith(r.output, "thermal.thermal_zone1").empty()) << r.output;
  EXPECT_NE(thermal.find(tree.Path("sys/class/thermal/thermal_zone1/temp") + ": No such file or directory"),
            std::string::npos)
      << r.output;

  const std::string freq = LineStartingWith(r.output, "cpu3.freq");
  EXPECT_NE(freq.find(" frequency "), std::string::npos) << freq;
  EXPECT_NE(freq.find(" kHz "), std::string::npos) << freq;
  EXPECT_TRUE(freq.ends_with(" 3100000")) << freq;
  EXPECT_NE(freq.find("sys/devices/system/cpu/cpu3/cpufreq/scaling_cur_freq"), std::string::npos) << freq;
  const std::string package = LineStartingWith(r.output, "rapl.intel-rapl:0");
  EXPECT_TRUE(package.ends_with(" 123456789")) << package;
  EXPECT_NE(package.find("package-0 [total]"), std::string::npos) << package;
  EXPECT_NE(LineStartingWith(r.output, "rapl.intel-rapl:0:0").find("core [part]"), std::string::npos)
      << r.output;
  const std::string zone = LineStartingWith(r.output, "thermal.thermal_zone0");
  EXPECT_TRUE(zone.ends_with(" 52000")) << zone;
  EXPECT_NE(zone.find("x86_pkg_temp"), std::string::npos) << zone;
  // The tree's proc/stat does not change between the two samples: no tick, so not known; never 0.
  const std::string util = LineStartingWith(r.output, "cpu0.util");
  EXPECT_TRUE(util.ends_with(" - (not known yet)")) << util;
  EXPECT_EQ(LineStartingWith(r.output, "process.rss"), "") << r.output;  // no proc/self in the tree
}

TEST(DevicesSensorsCli, WithoutSensorsTheListIsBackendsOnly) {
  auto r = RunCommand(Executable() + " devices 2>&1");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.find("sensors under"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace edgebench
