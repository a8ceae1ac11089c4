// The triad probe on small arrays (its figure is not judged: a shared machine's bandwidth is
// anything), the cache size from a copied sysfs tree, the array size rule, and bad options.
#include "diagnose/bandwidth_probe.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

TEST(BandwidthProbe, MeasuresEveryPassOnEveryThreadAndKeepsTheBest) {
  TriadOptions options;
  options.threads = 2;
  options.array_bytes = 1 << 20;
  options.passes = 3;
  auto m = MeasureTriadBandwidth(options);
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_GT(m.value().gb_per_s, 0);
  EXPECT_LE(m.value().worst_gb_per_s, m.value().median_gb_per_s);
  EXPECT_LE(m.value().median_gb_per_s, m.value().gb_per_s);
  EXPECT_GE(m.value().spread(), 0);
  EXPECT_EQ(m.value().threads, 2);
  EXPECT_EQ(m.value().passes, 3);
  EXPECT_EQ(m.value().array_bytes, 1 << 20);
  EXPECT_NE(m.value().method.find("24 bytes"), std::string::npos);
}

TEST(BandwidthProbe, RefusesOptionsOutOfRange) {
  EXPECT_FALSE(MeasureTriadBandwidth({0, 1 << 20, 3}).ok());
  EXPECT_FALSE(MeasureTriadBandwidth({1, 1 << 20, 0}).ok());
  EXPECT_FALSE(MeasureTriadBandwidth({4, 16, 1}).ok());  // two doubles for four threads
}

TEST(BandwidthProbe, TakesTheLargestDataCacheFromSysfs) {
  const std::string root = testing::TempFilePath("bandwidth_", "sysfs");
  const std::string dir = root + "/sys/devices/system/cpu/cpu0/cache";
  auto write = [&](const std::string& index, const char* level, const char* type, const char* size) {
    std::filesystem::create_directories(dir + "/" + index);
    std::ofstream(dir + "/" + index + "/level") << level << "\n";
    std::ofstream(dir + "/" + index + "/type") << type << "\n";
    std::ofstream(dir + "/" + index + "/size") << size << "\n";
  };
  write("index0", "1", "Data", "48K");
  write("index1", "1", "Instruction", "32K");
  write("index2", "2", "Unified", "2048K");
  write("index3", "3", "Unified", "105M");
  EXPECT_EQ(LastLevelCacheBytes(root), int64_t{105} << 20);
  EXPECT_EQ(LastLevelCacheBytes(root + "/nowhere"), 0);
  std::filesystem::remove_all(root);
}

TEST(BandwidthProbe, ArraysAreFourTimesTheCacheUnlessMemoryIsShort) {
  std::string note;
  EXPECT_EQ(DefaultTriadArrayBytes(int64_t{105} << 20, int64_t{24} << 30, &note), int64_t{420} << 20);
  EXPECT_TRUE(note.empty());
  EXPECT_EQ(DefaultTriadArrayBytes(int64_t{1} << 20, int64_t{24} << 30, &note), int64_t{64} << 20);  // the floor
  // A board of 1 GiB with a 512 MiB cache: an eighth of the memory over three arrays.
  EXPECT_EQ(DefaultTriadArrayBytes(int64_t{512} << 20, int64_t{1} << 30, &note), ((int64_t{1} << 30) / 24) / 64 * 64);
  EXPECT_NE(note.find("under STREAM's 4x"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
