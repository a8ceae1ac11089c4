// The machine's limits: JSON both ways, the cache under EDGEBENCH_CACHE, and what a missing or
// damaged cache says.
#include "core/machine_limits.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmath>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

MachineLimits Sample() {
  MachineLimits m;
  m.machine = "host-cpu-2c-24000MiB";
  m.measured_at = "2026-12-03T09:00:00Z";
  BandwidthMeasurement b;
  b.gb_per_s = 12.5;
  b.worst_gb_per_s = 12.0;
  b.median_gb_per_s = 12.25;
  b.threads = 2;
  b.array_bytes = 420 << 20;
  b.passes = 10;
  b.method = "triad";
  m.bandwidth_all_threads = b;
  m.published_peak_gflops = 500;
  return m;
}

TEST(MachineLimits, ReadBackAsWritten) {
  auto back = MachineLimitsFromJson(MachineLimitsToJson(Sample()));
  ASSERT_TRUE(back.ok()) << back.error();
  const MachineLimits& m = back.value();
  EXPECT_EQ(m.machine, "host-cpu-2c-24000MiB");
  EXPECT_FALSE(m.bandwidth_one_thread);
  ASSERT_TRUE(m.bandwidth_all_threads);
  EXPECT_EQ(m.bandwidth_all_threads->gb_per_s, 12.5);
  EXPECT_NEAR(m.bandwidth_all_threads->spread(), 12.5 / 12.0 - 1, 1e-12);
  EXPECT_EQ(m.published_peak_gflops, 500);
  EXPECT_EQ(m.published_peak_gb_per_s, 0);
  // One thread asked, only the all-cores figure there: that one.
  EXPECT_EQ(m.BandwidthFor(1), &*m.bandwidth_all_threads);
  EXPECT_FALSE(MachineLimitsFromJson(nlohmann::json{{"machine", 3}}).ok());
}

TEST(MachineLimits, AreCachedPerMachineAndSayWhenMissingOrDamaged) {
  const std::string cache = testing::TempFilePath("limits_", "cache");
  ::setenv("EDGEBENCH_CACHE", cache.c_str(), 1);
  const Environment here = ReadEnvironment();
  std::string why;
  EXPECT_FALSE(LoadMachineLimits(here, &why));
  EXPECT_NE(why.find("edgebench devices --limits"), std::string::npos) << why;
  const std::string path = MachineLimitsPath(MachineKey(here));
  EXPECT_EQ(path.rfind(cache + "/limits/", 0), 0u) << path;
  EXPECT_EQ(path.find('/', cache.size() + 8), std::string::npos) << "one file name: " << path;

  MachineLimits measured = Sample();
  measured.machine = MachineKey(here);
  ASSERT_TRUE(SaveMachineLimits(measured).ok());
  auto loaded = LoadMachineLimits(here, &why);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->bandwidth_all_threads->gb_per_s, 12.5);
  // Limits of another machine are filed under its own key, not found for this one's.
  MachineLimits other = Sample();
  other.machine = "another-host";
  ASSERT_TRUE(SaveMachineLimits(other).ok());
  EXPECT_TRUE(std::filesystem::exists(MachineLimitsPath("another-host")));
  EXPECT_EQ(LoadMachineLimits(here, &why)->machine, MachineKey(here));
  other.machine.clear();
  EXPECT_FALSE(SaveMachineLimits(other).ok());

  std::ofstream(path) << "{not json";
  EXPECT_FALSE(LoadMachineLimits(here, &why));
  EXPECT_NE(why.find("not JSON"), std::string::npos) << why;
  ::unsetenv("EDGEBENCH_CACHE");
  std::filesystem::remove_all(cache);
}

// Issue 50, class 2: the cache is a file anyone could have written. A negative or absurd figure,
// another machine's limits copied over this one's, a cache of 200,000 peaks or a FIFO in its
// place are refused with the reason, and the roofline says it has no limits rather than using them.
TEST(MachineLimits, ACacheThatIsNotThisMachinesPlausibleLimitsIsRefused) {
  const std::string cache = testing::TempFilePath("limits_hostile_", "cache");
  ::setenv("EDGEBENCH_CACHE", cache.c_str(), 1);
  const Environment here = ReadEnvironment();
  const std::string path = MachineLimitsPath(MachineKey(here));
  std::string why;
  const auto refused = [&](MachineLimits m, const std::string& says, nlohmann::json patch = nlohmann::json::object()) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    nlohmann::json j = MachineLimitsToJson(m);
    j.update(patch);
    std::ofstream(path) << j.dump();
    EXPECT_FALSE(LoadMachineLimits(here, &why)) << says;
    EXPECT_NE(why.find(says), std::string::npos) << why;
  };
  MachineLimits base = Sample();
  base.machine = MachineKey(here);
  MachineLimits negative = base;
  negative.bandwidth_all_threads->gb_per_s = -12.5;
  refused(negative, "a bandwidth of -12.5");
  MachineLimits huge = base;
  huge.bandwidth_all_threads->gb_per_s = 1e308;
  refused(huge, "a bandwidth of 1e+308 GB/s is not a measurement");
  refused(base, "a published peak of -5", {{"published_peak_gflops", -5}});  // a file the writer never made
  MachineLimits elsewhere = base;
  elsewhere.machine = "another-host-cpu-64c-512000MiB";
  refused(elsewhere, "holds the limits of another machine (another-host-cpu-64c-512000MiB)");
  MachineLimits many = base;
  many.compute_peaks.resize(200000, ComputePeak{"ort:cpu", "fp32", 10, 10, 10, 64, 1, 1, "m"});
  refused(many, "it is larger than 1 MiB");  // 82 MB copied into every record before
  MachineLimits some = base;
  some.compute_peaks.resize(2000, ComputePeak{"ort:cpu", "fp32", 10, 10, 10, 64, 1, 1, "m"});
  refused(some, "holds 2000 compute peaks");
  MachineLimits bad_peak = base;
  bad_peak.compute_peaks.push_back(ComputePeak{"ort:cpu", "fp32", -3, 0, 0, 64, 1, 1, "m"});
  refused(bad_peak, "a compute peak of -3");
  std::filesystem::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_FALSE(LoadMachineLimits(here, &why));
  EXPECT_NE(why.find("it is a FIFO"), std::string::npos) << why;
  std::filesystem::remove(path);
  std::ofstream(path) << MachineLimitsToJson(base).dump();
  EXPECT_TRUE(LoadMachineLimits(here, &why)) << why;
  ::unsetenv("EDGEBENCH_CACHE");
  std::filesystem::remove_all(cache);
}

}  // namespace
}  // namespace edgebench
