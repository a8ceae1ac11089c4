// --cooldown: its forms and errors, a temperature wait on a fake thermal zone that cools, a wait
// that gives up, and the fixed wait where no sensor exists.
#include "monitor/cooldown.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

TEST(CooldownSpec, ReadsItsFormsAndRejectsOthersSayingWhy) {
  auto temperature = ParseCooldown("2C");
  ASSERT_TRUE(temperature.ok()) << temperature.error();
  EXPECT_EQ(temperature.value().within_c, 2.0);
  EXPECT_EQ(temperature.value().max_ms, 300'000);
  EXPECT_EQ(temperature.value().fixed_ms, 30'000);
  auto options = ParseCooldown("1.5C,max=2m,fallback=500ms");
  ASSERT_TRUE(options.ok()) << options.error();
  EXPECT_EQ(options.value().max_ms, 120'000);
  EXPECT_EQ(options.value().fixed_ms, 500);
  auto fixed = ParseCooldown("30s");
  ASSERT_TRUE(fixed.ok());
  EXPECT_FALSE(fixed.value().within_c);
  EXPECT_EQ(fixed.value().fixed_ms, 30'000);
  for (const char* bad : {"", "2", "hot", "-2C", "0C", "2C,max=forever", "2C,wait=3s", "30s,max=60s", "2x"}) {
    auto parsed = ParseCooldown(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    if (!parsed.ok()) {
      EXPECT_NE(parsed.error().find("use e.g. --cooldown 2C"), std::string::npos) << parsed.error();
    }
  }
}

// A thermal zone at `mc` under a fresh root.
std::string ThermalTree(const std::string& name, int mc) {
  const std::string root = testing::TempFilePath("cooldown_", name);
  std::filesystem::create_directories(root + "/sys/class/thermal/thermal_zone0");
  std::ofstream(root + "/sys/class/thermal/thermal_zone0/type") << "cpu-thermal\n";
  std::ofstream(root + "/sys/class/thermal/thermal_zone0/temp") << mc << "\n";
  return root;
}

void SetTemperature(const std::string& root, int mc) {
  std::ofstream(root + "/sys/class/thermal/thermal_zone0/temp") << mc << "\n";
}

TEST(Cooldown, WaitsUntilTheZoneIsWithinTheMarginOfIdle) {
  const std::string root = ThermalTree("cools", 45'000);
  SensorRoots roots;
  roots.root = root;
  int64_t now = 0;
  // Each second of waiting cools the zone by 2 C, from 55 C.
  Cooldown cooldown(ParseCooldown("3C").take(), roots,
                    [&] { return now; },
                    [&](int64_t ms) {
                      now += ms;
                      SetTemperature(root, static_cast<int>(55'000 - 2 * now));
                    });
  cooldown.ReadIdle();
  SetTemperature(root, 55'000);
  const CooldownResult result = cooldown.Wait();
  EXPECT_EQ(result.mode, "temperature");
  EXPECT_EQ(result.idle_mc, 45'000);
  EXPECT_EQ(result.start_mc, 55'000);
  EXPECT_EQ(result.end_mc, 47'000);  // 4 s: 55 - 8 C, the first reading within 45 + 3 C
  EXPECT_EQ(result.waited_ms, 4000);
  EXPECT_TRUE(result.reached);
  EXPECT_EQ(result.detail, "thermal.thermal_zone0 at 47.0 C, within 3.0 C of idle 45.0 C");
  std::filesystem::remove_all(root);
}

TEST(Cooldown, GivesUpAtItsMaximumAndSaysTheCaseRanWarm) {
  const std::string root = ThermalTree("stays_hot", 45'000);
  SensorRoots roots;
  roots.root = root;
  int64_t now = 0;
  Cooldown cooldown(ParseCooldown("2C,max=5s").take(), roots, [&] { return now; }, [&](int64_t ms) { now += ms; });
  cooldown.ReadIdle();
  SetTemperature(root, 70'000);
  const CooldownResult result = cooldown.Wait();
  EXPECT_FALSE(result.reached);
  EXPECT_EQ(result.waited_ms, 5000);
  EXPECT_EQ(result.detail,
            "thermal.thermal_zone0 still at 70.0 C after 5000 ms, above 47.0 C (idle 45.0 C + 2.0 C); the case "
            "ran warm");
  std::filesystem::remove_all(root);
}

TEST(Cooldown, WithoutATemperatureSensorItWaitsTheFixedFallback) {
  const std::string root = testing::TempFilePath("cooldown_", "empty");
  std::filesystem::create_directories(root);
  SensorRoots roots;
  roots.root = root;
  int64_t now = 0;
  Cooldown cooldown(ParseCooldown("2C,fallback=1500ms").take(), roots, [&] { return now; },
                    [&](int64_t ms) { now += ms; });
  cooldown.ReadIdle();
  const CooldownResult result = cooldown.Wait();
  EXPECT_EQ(result.mode, "fixed");
  EXPECT_EQ(result.waited_ms, 1500);
  EXPECT_FALSE(result.idle_mc);
  EXPECT_NE(result.detail.find("no temperature sensor could be read"), std::string::npos);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace edgebench
