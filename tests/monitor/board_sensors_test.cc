// The readers on boards' trees: a Jetson's ina3221 power rails beside a temperature chip, and a
// Raspberry Pi with one thermal zone, a shared cpufreq policy and no power sensors, and an RK3588
// with three policies over eight big.LITTLE cores and seven zones.
#include <gtest/gtest.h>

#include "monitor/cpufreq_reader.h"
#include "monitor/device_sensors.h"
#include "monitor/hwmon_reader.h"
#include "monitor/rapl_reader.h"
#include "monitor/thermal_reader.h"
#include "fake_tree.h"
#include "reader_test_util.h"

namespace edgebench {
namespace {

using testing::BuildJetsonHwmon;
using testing::BuildRaspberryPi;
using testing::BuildRk3588;
using testing::FakeTree;
using testing::Ids;
using testing::ReadOnce;
using Strings = std::vector<std::string>;
using Values = std::vector<std::optional<double>>;

TEST(HwmonReader, JetsonRailsGiveVoltageCurrentAndTheirPower) {
  FakeTree tree("jetson_hwmon");
  BuildJetsonHwmon(tree);
  auto reader = OpenHwmonReader(tree.Roots());
  EXPECT_TRUE(reader->status().available);
  EXPECT_EQ(reader->status().reason, "");
  ASSERT_EQ(Ids(reader->channels()),
            (Strings{"hwmon0.temp1", "hwmon0.temp2", "hwmon1.curr1", "hwmon1.curr2", "hwmon1.curr3",
                     "hwmon1.in1", "hwmon1.in2", "hwmon1.in3", "hwmon1.rail_power1",
                     "hwmon1.rail_power2", "hwmon1.rail_power3"}));
  const auto& c = reader->channels();
  EXPECT_EQ(c[0].label, "tmp451/temp1");
  EXPECT_EQ(c[0].kind, ChannelKind::kTemperature);
  EXPECT_EQ(c[0].source, "sys/class/hwmon/hwmon0/temp1_input");
  EXPECT_EQ(c[2].label, "ina3221/VDD_IN");  // a current takes its rail's name from inN_label
  EXPECT_EQ(c[2].kind, ChannelKind::kCurrent);
  EXPECT_EQ(c[6].label, "ina3221/VDD_CPU_GPU_CV");
  EXPECT_EQ(c[6].kind, ChannelKind::kVoltage);
  EXPECT_EQ(c[8].label, "ina3221/VDD_IN");
  EXPECT_EQ(c[8].kind, ChannelKind::kPower);
  EXPECT_EQ(c[8].source, "sys/class/hwmon/hwmon1/in1_input x curr1_input");
  EXPECT_EQ(c[10].label, "ina3221/VDD_SOC");
  // VDD_IN is the board's input; the other rails are inside it.
  EXPECT_TRUE(c[8].device_total);
  EXPECT_FALSE(c[8].part_of_total);
  for (size_t i : {9u, 10u}) {
    EXPECT_FALSE(c[i].device_total) << c[i].id;
    EXPECT_TRUE(c[i].part_of_total) << c[i].id;
  }
  for (size_t i = 0; i < 8; ++i) EXPECT_FALSE(c[i].device_total || c[i].part_of_total) << c[i].id;

  // 5080 mV x 1240 mA = 6,299,200 uW; 5072 x 424; 5076 x 688.
  EXPECT_EQ(ReadOnce(*reader).values, (Values{41250, 38500, 1240, 424, 688, 5080, 5072, 5076,
                                              6299200, 2150528, 3492288}));
  tree.Write("sys/class/hwmon/hwmon1/curr1_input", 2000);
  EXPECT_EQ(ReadOnce(*reader).values[8], 5080.0 * 2000);
}

TEST(HwmonReader, PowerAverageWhereThereIsNoInputAndEnergyCounters) {
  FakeTree tree("hwmon_power");
  tree.Write("sys/class/hwmon/hwmon3/name", "amdgpu");
  tree.Write("sys/class/hwmon/hwmon3/power1_average", 15000000);
  tree.Write("sys/class/hwmon/hwmon3/power1_cap", 90000000);
  tree.Write("sys/class/hwmon/hwmon3/power1_label", "PPT");
  tree.Write("sys/class/hwmon/hwmon4/name", "pm_board");
  tree.Write("sys/class/hwmon/hwmon4/power1_input", 4000000);
  tree.Write("sys/class/hwmon/hwmon4/power1_average", 3900000);
  tree.Write("sys/class/hwmon/hwmon4/power1_label", "POM_5V_IN");
  tree.Write("sys/class/hwmon/hwmon4/power2_input", 1000000);
  tree.Write("sys/class/hwmon/hwmon4/energy1_input", 777000000);
  auto reader = OpenHwmonReader(tree.Roots());
  ASSERT_EQ(Ids(reader->channels()),
            (Strings{"hwmon3.power1", "hwmon4.energy1", "hwmon4.power1", "hwmon4.power2"}));
  const auto& c = reader->channels();
  EXPECT_EQ(c[0].label, "amdgpu/PPT");
  EXPECT_EQ(c[0].source, "sys/class/hwmon/hwmon3/power1_average");
  EXPECT_FALSE(c[0].device_total || c[0].part_of_total);  // no input rail on that chip
  EXPECT_EQ(c[1].kind, ChannelKind::kEnergy);
  EXPECT_EQ(c[1].wrap_uj, 0);
  EXPECT_FALSE(c[1].device_total || c[1].part_of_total);
  EXPECT_EQ(c[2].source, "sys/class/hwmon/hwmon4/power1_input");
  EXPECT_TRUE(c[2].device_total);
  EXPECT_TRUE(c[3].part_of_total);
  EXPECT_EQ(ReadOnce(*reader).values, (Values{15000000, 777000000, 4000000, 1000000}));
}

TEST(RaspberryPi, ThermalZoneSharedCpufreqPolicyAndNoPower) {
  FakeTree tree("raspberry_pi");
  BuildRaspberryPi(tree);

  auto thermal = OpenThermalReader(tree.Roots());
  ASSERT_EQ(Ids(thermal->channels()), (Strings{"thermal.thermal_zone0"}));
  EXPECT_EQ(thermal->channels()[0].label, "cpu-thermal");
  ASSERT_EQ(thermal->channels()[0].trips.size(), 1u);
  EXPECT_EQ(thermal->channels()[0].trips[0].temp_mc, 110000);
  EXPECT_EQ(thermal->channels()[0].trips[0].type, "critical");
  EXPECT_EQ(ReadOnce(*thermal).values, (Values{48312}));

  auto cpufreq = OpenCpufreqReader(tree.Roots());
  EXPECT_TRUE(cpufreq->status().available);
  // No thermal_throttle on Arm: the reader says where throttling shows instead.
  EXPECT_EQ(cpufreq->status().reason,
            "no throttle counters: no thermal_throttle under " +
                tree.Path("sys/devices/system/cpu") +
                " (x86 kernels have them, Arm kernels do not); throttling shows as a core's"
                " frequency below its cpuinfo_max_freq");
  ASSERT_EQ(Ids(cpufreq->channels()), (Strings{"cpu0.freq", "cpu1.freq", "cpu2.freq", "cpu3.freq"}));
  EXPECT_EQ(cpufreq->channels()[3].max_khz, 1800000);
  EXPECT_EQ(ReadOnce(*cpufreq).values, (Values{1500000, 1500000, 1500000, 1500000}));
  // The policy is shared: one write moves every core.
  tree.Write("sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", 600000);
  EXPECT_EQ(ReadOnce(*cpufreq).values, (Values{600000, 600000, 600000, 600000}));

  auto hwmon = OpenHwmonReader(tree.Roots());
  ASSERT_EQ(Ids(hwmon->channels()), (Strings{"hwmon0.temp1"}));  // rpi_volt has only an alarm
  EXPECT_EQ(hwmon->channels()[0].label, "cpu_thermal/temp1");

  auto rapl = OpenRaplReader(tree.Roots());
  EXPECT_FALSE(rapl->status().available);
  EXPECT_TRUE(rapl->channels().empty());
  EXPECT_EQ(rapl->status().reason,
            "absent: " + tree.Path("sys/class/powercap") +
                " does not exist (no RAPL on this machine, or a container without it)");

  SensorSet set = OpenDeviceSensors(tree.Roots());
  for (const Channel& c : set.channels()) {
    EXPECT_NE(c.kind, ChannelKind::kPower) << c.id;
    EXPECT_NE(c.kind, ChannelKind::kEnergy) << c.id;
  }
}

TEST(Rk3588, SevenZonesThreePoliciesAndNoPowerOrThrottleCounters) {
  FakeTree tree("rk3588");
  BuildRk3588(tree);

  auto thermal = OpenThermalReader(tree.Roots());
  ASSERT_EQ(thermal->channels().size(), 7u);
  EXPECT_EQ(thermal->channels()[1].label, "bigcore0-thermal");
  EXPECT_EQ(thermal->channels()[6].label, "npu-thermal");
  ASSERT_EQ(thermal->channels()[6].trips.size(), 2u);
  EXPECT_EQ(thermal->channels()[6].trips[0].type, "passive");
  EXPECT_EQ(thermal->channels()[6].trips[0].temp_mc, 85000);
  EXPECT_EQ(ReadOnce(*thermal).values,
            (Values{46200, 47100, 46900, 45800, 45400, 44500, 61000}));

  auto cpufreq = OpenCpufreqReader(tree.Roots());
  EXPECT_TRUE(cpufreq->status().available);
  EXPECT_NE(cpufreq->status().reason.find("no throttle counters"), std::string::npos);
  ASSERT_EQ(cpufreq->channels().size(), 8u);  // one frequency per core, no throttle counter
  for (const Channel& c : cpufreq->channels()) EXPECT_EQ(c.kind, ChannelKind::kFrequency) << c.id;
  EXPECT_EQ(cpufreq->channels()[0].max_khz, 1800000);
  EXPECT_EQ(cpufreq->channels()[7].max_khz, 2256000);
  EXPECT_EQ(ReadOnce(*cpufreq).values, (Values{1800000, 1800000, 1800000, 1800000, 2256000,
                                               2256000, 1608000, 1608000}));
  // A cooling device caps the second big pair: both its cores move, the others do not.
  tree.Write("sys/devices/system/cpu/cpufreq/policy6/scaling_cur_freq", 1200000);
  const Values after = ReadOnce(*cpufreq).values;
  EXPECT_EQ(after[5], 2256000);
  EXPECT_EQ(after[6], 1200000);
  EXPECT_EQ(after[7], 1200000);

  auto rapl = OpenRaplReader(tree.Roots());
  EXPECT_FALSE(rapl->status().available);
  EXPECT_NE(rapl->status().reason.find("no RAPL on this machine"), std::string::npos);
  SensorSet set = OpenDeviceSensors(tree.Roots());
  for (const Channel& c : set.channels()) {
    EXPECT_NE(c.kind, ChannelKind::kPower) << c.id;
    EXPECT_NE(c.kind, ChannelKind::kThrottleCount) << c.id;
  }
}

}  // namespace
}  // namespace edgebench
