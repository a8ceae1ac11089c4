// The readers on an x86 laptop's tree: per-core utilisation, frequency and throttle counters,
// thermal zones with trip points, RAPL domains; exact values, values that change, a sensor that
// vanishes, and energy that only root may read.
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "monitor/cpu_reader.h"
#include "monitor/cpufreq_reader.h"
#include "monitor/device_sensors.h"
#include "monitor/rapl_reader.h"
#include "monitor/thermal_reader.h"
#include "fake_tree.h"
#include "reader_test_util.h"

namespace edgebench {
namespace {

using testing::BuildLaptop;
using testing::FakeTree;
using testing::Ids;
using testing::ReadOnce;
using Strings = std::vector<std::string>;
using Values = std::vector<std::optional<double>>;

TEST(CpuReader, UtilisationPerCoreFromTwoSnapshotsOfProcStat) {
  FakeTree tree("laptop_cpu");
  BuildLaptop(tree);
  auto reader = OpenCpuReader(tree.Roots());
  EXPECT_TRUE(reader->status().available);
  EXPECT_EQ(reader->status().reason, "");
  ASSERT_EQ(Ids(reader->channels()), (Strings{"cpu0.util", "cpu1.util", "cpu2.util", "cpu3.util"}));
  EXPECT_EQ(reader->channels()[2].kind, ChannelKind::kCpuUtil);
  EXPECT_EQ(reader->channels()[2].cpu, 2);
  EXPECT_EQ(reader->channels()[2].source, "proc/stat");
  EXPECT_EQ(reader->channels()[2].reader, "cpu");

  // No interval yet: not known, and not an error.
  auto first = ReadOnce(*reader, 0);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(first.values[i], std::nullopt);
    EXPECT_EQ(first.errors[i], "");
  }
  // cpu0: +300 user +100 system +500 idle +100 iowait: 1000 ticks, 600 idle -> 40%.
  // cpu1: +200 user only -> 100%. cpu2: +400 idle only -> 0%.
  // cpu3: +500 user +100 system +200 idle, and 50 guest ticks already inside user -> 75%.
  tree.Write("proc/stat",
             "cpu  5400 0 1600 28900 1000 0 100 0 50 0\n"
             "cpu0 1300 0 600 8500 600 0 0 0 0 0\n"
             "cpu1 1400 0 300 7000 100 0 50 0 0 0\n"
             "cpu2 900 0 300 7400 200 0 0 0 0 0\n"
             "cpu3 1600 0 400 6200 100 0 50 0 50 0\n");
  auto second = ReadOnce(*reader, 100'000'000);
  EXPECT_EQ(second.values[0], 40.0);
  EXPECT_EQ(second.values[1], 100.0);
  EXPECT_EQ(second.values[2], 0.0);
  EXPECT_EQ(second.values[3], 75.0);

  // A core that goes offline loses its line: an error naming the file and the core.
  tree.Write("proc/stat", "cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 1300 0 600 8500 600 0 0 0 0 0\n");
  auto third = ReadOnce(*reader, 200'000'000);
  EXPECT_EQ(third.values[0], std::nullopt);  // no tick passed on cpu0
  EXPECT_EQ(third.errors[0], "");
  EXPECT_EQ(third.values[1], std::nullopt);
  EXPECT_EQ(third.errors[1], tree.Path("proc/stat") + ": no cpu1 line (the core went offline)");
}

TEST(CpufreqReader, FrequencyWithMaximumAndThrottleCountersOnePackageCounter) {
  FakeTree tree("laptop_cpufreq");
  BuildLaptop(tree);
  auto reader = OpenCpufreqReader(tree.Roots());
  EXPECT_TRUE(reader->status().available);
  EXPECT_EQ(reader->status().reason, "");
  ASSERT_EQ(Ids(reader->channels()),
            (Strings{"cpu0.freq", "cpu0.core_throttle", "cpu0.package_throttle", "cpu1.freq",
                     "cpu1.core_throttle", "cpu2.freq", "cpu2.core_throttle", "cpu3.freq",
                     "cpu3.core_throttle"}));
  const Channel& freq = reader->channels()[3];
  EXPECT_EQ(freq.kind, ChannelKind::kFrequency);
  EXPECT_EQ(freq.cpu, 1);
  EXPECT_EQ(freq.max_khz, 4700000);
  EXPECT_EQ(freq.source, "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq");
  EXPECT_EQ(reader->channels()[2].kind, ChannelKind::kThrottleCount);
  EXPECT_EQ(reader->channels()[2].label, "package 0 throttle");
  EXPECT_EQ(reader->channels()[4].source, "sys/devices/system/cpu/cpu1/thermal_throttle/core_throttle_count");

  auto first = ReadOnce(*reader);
  EXPECT_EQ(first.values, (Values{2400000, 3, 7, 1800000, 0, 800000, 0, 3100000, 1}));
  // The governor lowers cpu3 and the package throttles once more.
  tree.Write("sys/devices/system/cpu/cpu3/cpufreq/scaling_cur_freq", 1200000);
  tree.Write("sys/devices/system/cpu/cpu0/thermal_throttle/package_throttle_count", 8);
  auto second = ReadOnce(*reader);
  EXPECT_EQ(second.values[7], 1200000);
  EXPECT_EQ(second.values[2], 8);
}

TEST(CpufreqReader, PackageCounterPerCoreWithoutTopology) {
  FakeTree tree("laptop_no_topology");
  BuildLaptop(tree);
  for (int cpu = 0; cpu < 4; ++cpu) tree.Remove("sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology");
  auto reader = OpenCpufreqReader(tree.Roots());
  EXPECT_EQ(reader->channels().size(), 12u);
  EXPECT_EQ(reader->channels()[5].id, "cpu1.package_throttle");
  EXPECT_EQ(reader->channels()[5].label, "cpu1 package throttle");
}

TEST(ThermalReader, ZonesWithTypesAndTripPoints) {
  FakeTree tree("laptop_thermal");
  BuildLaptop(tree);
  auto reader = OpenThermalReader(tree.Roots());
  EXPECT_TRUE(reader->status().available);
  EXPECT_EQ(reader->status().reason, "");
  ASSERT_EQ(Ids(reader->channels()), (Strings{"thermal.thermal_zone0", "thermal.thermal_zone1"}));
  const Channel& package = reader->channels()[0];
  EXPECT_EQ(package.label, "x86_pkg_temp");
  EXPECT_EQ(package.kind, ChannelKind::kTemperature);
  EXPECT_EQ(package.source, "sys/class/thermal/thermal_zone0/temp");
  ASSERT_EQ(package.trips.size(), 2u);
  EXPECT_EQ(package.trips[0].temp_mc, 95000);
  EXPECT_EQ(package.trips[0].type, "passive");
  EXPECT_EQ(package.trips[1].temp_mc, 105000);
  EXPECT_EQ(package.trips[1].type, "critical");
  EXPECT_EQ(reader->channels()[1].label, "acpitz");
  EXPECT_TRUE(reader->channels()[1].trips.empty());

  EXPECT_EQ(ReadOnce(*reader).values, (Values{52000, 27800}));
  tree.Write("sys/class/thermal/thermal_zone0/temp", 96000);
  EXPECT_EQ(ReadOnce(*reader).values, (Values{96000, 27800}));
}

TEST(ThermalReader, ASensorThatVanishesMidRunIsAnErrorRecordedOnce) {
  FakeTree tree("laptop_vanish");
  BuildLaptop(tree);
  std::vector<std::unique_ptr<SensorReader>> readers;
  readers.push_back(OpenThermalReader(tree.Roots()));
  SensorSet set(std::move(readers));
  auto before = set.Sample(1000);
  EXPECT_EQ(before.values[1], 27800);
  tree.Remove("sys/class/thermal/thermal_zone1");
  auto after = set.Sample(2000);
  auto later = set.Sample(3000);
  EXPECT_EQ(after.values[0], 52000);
  EXPECT_EQ(after.values[1], std::nullopt);
  EXPECT_EQ(later.values[1], std::nullopt);
  ASSERT_EQ(set.failures().size(), 1u);
  EXPECT_EQ(set.failures()[0].channel, 1u);
  EXPECT_EQ(set.failures()[0].t_ns, 2000);
  EXPECT_EQ(set.failures()[0].error,
            tree.Path("sys/class/thermal/thermal_zone1/temp") + ": No such file or directory");
}

TEST(RaplReader, PackagesSubdomainsAndPsysWithTheirWrap) {
  FakeTree tree("laptop_rapl");
  BuildLaptop(tree);
  auto reader = OpenRaplReader(tree.Roots());
  EXPECT_TRUE(reader->status().available);
  EXPECT_EQ(reader->status().reason, "");
  ASSERT_EQ(Ids(reader->channels()), (Strings{"rapl.intel-rapl:0", "rapl.intel-rapl:0:0",
                                                   "rapl.intel-rapl:0:1", "rapl.intel-rapl:1"}));
  const auto& c = reader->channels();
  EXPECT_EQ(c[0].label, "package-0");
  EXPECT_EQ(c[1].label, "core");
  EXPECT_EQ(c[2].label, "uncore");
  EXPECT_EQ(c[3].label, "psys (whole platform)");
  EXPECT_EQ(c[0].source, "sys/class/powercap/intel-rapl:0/energy_uj");
  for (const Channel& channel : c) {
    EXPECT_EQ(channel.kind, ChannelKind::kEnergy);
    EXPECT_EQ(channel.wrap_uj, 262143328850LL);
  }
  EXPECT_TRUE(c[0].device_total);
  EXPECT_FALSE(c[0].part_of_total);
  EXPECT_FALSE(c[1].device_total);
  EXPECT_TRUE(c[1].part_of_total);
  EXPECT_TRUE(c[2].part_of_total);
  EXPECT_FALSE(c[3].device_total);
  EXPECT_FALSE(c[3].part_of_total);

  EXPECT_EQ(ReadOnce(*reader).values, (Values{123456789, 45678901, 1234567, 987654321}));
  // The counter wraps: the reader reports the raw counter; the sampler unwraps with wrap_uj.
  tree.Write("sys/class/powercap/intel-rapl:0/energy_uj", 1000);
  EXPECT_EQ(ReadOnce(*reader).values[0], 1000);
}

// Drops, in this process, the capabilities that let root read any file (the tests run as root
// inside the build root), so that a file's mode denies as it does for a user.
bool DropFileReadOverride() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH}) data[cap / 32].effective &= ~(1u << (cap % 32));
  return ::syscall(SYS_capset, &header, data) == 0;
}

TEST(RaplReader, UnreadableEnergySaysRootOnlySinceLinux510) {
  FakeTree tree("laptop_rapl_denied");
  BuildLaptop(tree);
  const std::string uncore = tree.Path("sys/class/powercap/intel-rapl:0:1/energy_uj");
  ASSERT_EQ(::chmod(uncore.c_str(), 0), 0);
  // In a child, without the capabilities: it sends back the reason and the channels' ids.
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    DropFileReadOverride();
    const int fd = ::open(uncore.c_str(), O_RDONLY);  // not access(): it checks with root's caps
    if (fd >= 0) ::_exit(77);
    auto reader = OpenRaplReader(tree.Roots());
    std::string report = std::string(reader->status().available ? "yes" : "no") + "\n" +
                         reader->status().reason + "\n";
    for (const Channel& c : reader->channels()) report += c.id + " ";
    const ssize_t written = ::write(pipe_fds[1], report.data(), report.size());
    ::_exit(written == static_cast<ssize_t>(report.size()) ? 0 : 1);
  }
  ::close(pipe_fds[1]);
  std::string report;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) report.append(buffer, static_cast<size_t>(n));
  ::close(pipe_fds[0]);
  int wait_status = 0;
  ASSERT_EQ(::waitpid(child, &wait_status, 0), child);
  ASSERT_TRUE(WIFEXITED(wait_status));
  if (WEXITSTATUS(wait_status) == 77) {
    GTEST_SKIP() << "even without CAP_DAC_OVERRIDE this process reads a file of mode 000, so the "
                    "permission reason cannot be provoked here";
  }
  ASSERT_EQ(WEXITSTATUS(wait_status), 0);
  EXPECT_EQ(report, "yes\npermission denied: " + uncore +
                        " is readable by root only since Linux 5.10 (CVE-2020-8694); run as root or "
                        "grant read access (e.g. chmod o+r) to measure energy\n"
                        "rapl.intel-rapl:0 rapl.intel-rapl:0:0 rapl.intel-rapl:1 ");
}

TEST(DeviceSensors, LaptopSetInReaderOrder) {
  FakeTree tree("laptop_set");
  BuildLaptop(tree);
  SensorSet set = OpenDeviceSensors(tree.Roots());
  std::vector<std::string> readers, available;
  for (const ReaderStatus& status : set.statuses()) {
    readers.push_back(status.reader);
    available.push_back(status.available ? "yes" : status.reason);
  }
  EXPECT_EQ(readers, (Strings{"process", "cpu", "cpufreq", "thermal", "hwmon", "rapl", "nvml", "gpu"}));
  EXPECT_EQ(available[1], "yes");
  EXPECT_EQ(available[2], "yes");
  EXPECT_EQ(available[3], "yes");
  EXPECT_EQ(available[4], "absent: " + tree.Path("sys/class/hwmon") + " does not exist");
  EXPECT_EQ(available[5], "yes");
  EXPECT_EQ(available[6], "absent: NVML is not opened (no library named)");
  EXPECT_EQ(set.channels().size(), 4u + 9u + 2u + 4u);
  for (const Channel& c : set.channels()) EXPECT_NE(c.reader, "process") << c.id;  // no proc/self
}

}  // namespace
}  // namespace edgebench
