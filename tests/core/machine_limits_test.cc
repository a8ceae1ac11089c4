// The machine's limits: JSON both ways, the cache under EDGEBENCH_CACHE, and what a missing or
// damaged cache says.
#include "core/machine_limits.h"

#include <gtest/gtest.h>
#include <stdlib.h>

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

}  // namespace
}  // namespace edgebench
