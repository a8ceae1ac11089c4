// A /proc and /sys tree in a temporary directory, modelled on a real machine's, for the readers.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "monitor/sensor.h"

namespace edgebench::testing {

class FakeTree {
 public:
  explicit FakeTree(const std::string& name)
      : root_(::testing::TempDir() + "edgebench_sensors_" + std::to_string(::getpid()) + "_" + name) {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~FakeTree() { std::filesystem::remove_all(root_); }
  FakeTree(const FakeTree&) = delete;
  FakeTree& operator=(const FakeTree&) = delete;

  const std::string& root() const { return root_; }
  std::string Path(const std::string& relative) const { return root_ + "/" + relative; }
  SensorRoots Roots() const {
    SensorRoots roots;
    roots.root = root_;
    roots.nvml_library = "";
    return roots;
  }

  // Writes `text` (a sysfs file ends in a newline) at `relative`, creating its directories.
  void Write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path path = Path(relative);
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text << "\n";
  }
  void Write(const std::string& relative, long long value) const {
    Write(relative, std::to_string(value));
  }
  void MakeDirectory(const std::string& relative) const {
    std::filesystem::create_directories(Path(relative));
  }
  void Symlink(const std::string& target, const std::string& relative) const {
    const std::filesystem::path path = Path(relative);
    std::filesystem::create_directories(path.parent_path());
    std::filesystem::create_directory_symlink(target, path);
  }
  void Remove(const std::string& relative) const { std::filesystem::remove_all(Path(relative)); }

 private:
  std::string root_;
};

// An x86 laptop: 4 cores with cpufreq and thermal_throttle, two thermal zones, RAPL with a
// package (core and uncore inside it) and psys.
inline void BuildLaptop(const FakeTree& tree) {
  tree.Write("proc/stat",
             "cpu  4200 0 1400 28000 900 0 100 0 0 0\n"
             "cpu0 1000 0 500 8000 500 0 0 0 0 0\n"
             "cpu1 1200 0 300 7000 100 0 50 0 0 0\n"
             "cpu2 900 0 300 7000 200 0 0 0 0 0\n"
             "cpu3 1100 0 300 6000 100 0 50 0 0 0\n"
             "intr 123456 0 0\n"
             "ctxt 987654\n");
  const long long cur_khz[] = {2400000, 1800000, 800000, 3100000};
  const long long core_throttles[] = {3, 0, 0, 1};
  for (int cpu = 0; cpu < 4; ++cpu) {
    const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(cpu);
    tree.Write(dir + "/cpufreq/scaling_cur_freq", cur_khz[cpu]);
    tree.Write(dir + "/cpufreq/cpuinfo_max_freq", 4700000);
    tree.Write(dir + "/cpufreq/cpuinfo_min_freq", 400000);
    tree.Write(dir + "/thermal_throttle/core_throttle_count", core_throttles[cpu]);
    tree.Write(dir + "/thermal_throttle/package_throttle_count", 7);
    tree.Write(dir + "/topology/physical_package_id", 0);
  }
  tree.MakeDirectory("sys/devices/system/cpu/cpuidle");
  tree.Write("sys/devices/system/cpu/online", "0-3");

  tree.Write("sys/class/thermal/thermal_zone0/type", "x86_pkg_temp");
  tree.Write("sys/class/thermal/thermal_zone0/temp", 52000);
  tree.Write("sys/class/thermal/thermal_zone0/trip_point_0_temp", 95000);
  tree.Write("sys/class/thermal/thermal_zone0/trip_point_0_type", "passive");
  tree.Write("sys/class/thermal/thermal_zone0/trip_point_1_temp", 105000);
  tree.Write("sys/class/thermal/thermal_zone0/trip_point_1_type", "critical");
  tree.Write("sys/class/thermal/thermal_zone1/type", "acpitz");
  tree.Write("sys/class/thermal/thermal_zone1/temp", 27800);
  tree.Write("sys/class/thermal/cooling_device0/type", "Processor");

  const std::string powercap = "sys/class/powercap/";
  tree.Write(powercap + "intel-rapl/enabled", 1);  // the control type, not a domain
  tree.Write(powercap + "intel-rapl:0/name", "package-0");
  tree.Write(powercap + "intel-rapl:0/energy_uj", 123456789);
  tree.Write(powercap + "intel-rapl:0/max_energy_range_uj", 262143328850LL);
  tree.Write(powercap + "intel-rapl:0:0/name", "core");
  tree.Write(powercap + "intel-rapl:0:0/energy_uj", 45678901);
  tree.Write(powercap + "intel-rapl:0:0/max_energy_range_uj", 262143328850LL);
  tree.Write(powercap + "intel-rapl:0:1/name", "uncore");
  tree.Write(powercap + "intel-rapl:0:1/energy_uj", 1234567);
  tree.Write(powercap + "intel-rapl:0:1/max_energy_range_uj", 262143328850LL);
  tree.Write(powercap + "intel-rapl:1/name", "psys");
  tree.Write(powercap + "intel-rapl:1/energy_uj", 987654321);
  tree.Write(powercap + "intel-rapl:1/max_energy_range_uj", 262143328850LL);
  // The same package counter again through MMIO: not a second package.
  tree.Write(powercap + "intel-rapl-mmio:0/name", "package-0");
  tree.Write(powercap + "intel-rapl-mmio:0/energy_uj", 123456000);
}

// A Jetson (Orin-like): an ina3221 power monitor with three rails, and a temperature chip.
inline void BuildJetsonHwmon(const FakeTree& tree) {
  tree.Write("sys/class/hwmon/hwmon0/name", "tmp451");
  tree.Write("sys/class/hwmon/hwmon0/temp1_input", 41250);
  tree.Write("sys/class/hwmon/hwmon0/temp2_input", 38500);
  tree.Write("sys/class/hwmon/hwmon0/temp1_crit", 120000);
  const std::string ina = "sys/class/hwmon/hwmon1/";
  tree.Write(ina + "name", "ina3221");
  const char* labels[] = {"VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC"};
  const long long millivolts[] = {5080, 5072, 5076};
  const long long milliamps[] = {1240, 424, 688};
  for (int n = 1; n <= 3; ++n) {
    const std::string k = std::to_string(n);
    tree.Write(ina + "in" + k + "_label", labels[n - 1]);
    tree.Write(ina + "in" + k + "_input", millivolts[n - 1]);
    tree.Write(ina + "curr" + k + "_input", milliamps[n - 1]);
    tree.Write(ina + "curr" + k + "_crit", 32760);
    tree.Write(ina + "curr" + k + "_max", 32760);
  }
  tree.Write(ina + "update_interval", 1100);
}

// A Raspberry Pi 4: one thermal zone, one cpufreq policy shared by cpu0..3 (each core's cpufreq
// is a link to it), a temperature hwmon and an undervoltage alarm; no RAPL, no power sensors.
inline void BuildRaspberryPi(const FakeTree& tree) {
  tree.Write("proc/stat",
             "cpu  800 0 200 3000 0 0 0 0 0 0\n"
             "cpu0 200 0 50 750 0 0 0 0 0 0\n"
             "cpu1 200 0 50 750 0 0 0 0 0 0\n"
             "cpu2 200 0 50 750 0 0 0 0 0 0\n"
             "cpu3 200 0 50 750 0 0 0 0 0 0\n");
  tree.Write("sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", 1500000);
  tree.Write("sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq", 1800000);
  for (int cpu = 0; cpu < 4; ++cpu) {
    const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(cpu);
    tree.Symlink("../cpufreq/policy0", dir + "/cpufreq");
    tree.Write(dir + "/topology/physical_package_id", 0);
  }
  tree.Write("sys/class/thermal/thermal_zone0/type", "cpu-thermal");
  tree.Write("sys/class/thermal/thermal_zone0/temp", 48312);
  tree.Write("sys/class/thermal/thermal_zone0/trip_point_0_temp", 110000);
  tree.Write("sys/class/thermal/thermal_zone0/trip_point_0_type", "critical");
  tree.Write("sys/class/hwmon/hwmon0/name", "cpu_thermal");
  tree.Write("sys/class/hwmon/hwmon0/temp1_input", 48312);
  tree.Write("sys/class/hwmon/hwmon1/name", "rpi_volt");
  tree.Write("sys/class/hwmon/hwmon1/in0_lcrit_alarm", 0);
}

// A Rockchip RK3588 board (the white paper's): three cpufreq policies (cpu0-3 Cortex-A55,
// cpu4-5 and cpu6-7 Cortex-A76 pairs), seven thermal zones with passive and critical trips, no
// thermal_throttle counters, no RAPL and no power sensor.
inline void BuildRk3588(const FakeTree& tree) {
  const char* zones[] = {"soc-thermal", "bigcore0-thermal", "bigcore1-thermal",
                         "littlecore-thermal", "center-thermal", "gpu-thermal", "npu-thermal"};
  const long long temps[] = {46200, 47100, 46900, 45800, 45400, 44500, 61000};
  for (int z = 0; z < 7; ++z) {
    const std::string dir = "sys/class/thermal/thermal_zone" + std::to_string(z) + "/";
    tree.Write(dir + "type", zones[z]);
    tree.Write(dir + "temp", temps[z]);
    tree.Write(dir + "trip_point_0_temp", 85000);
    tree.Write(dir + "trip_point_0_type", "passive");
    tree.Write(dir + "trip_point_1_temp", 115000);
    tree.Write(dir + "trip_point_1_type", "critical");
  }
  const int policy_of[] = {0, 0, 0, 0, 4, 4, 6, 6};
  const std::string cpufreq = "sys/devices/system/cpu/cpufreq/";
  tree.Write(cpufreq + "policy0/scaling_cur_freq", 1800000);
  tree.Write(cpufreq + "policy0/cpuinfo_max_freq", 1800000);
  tree.Write(cpufreq + "policy4/scaling_cur_freq", 2256000);
  tree.Write(cpufreq + "policy4/cpuinfo_max_freq", 2256000);
  tree.Write(cpufreq + "policy6/scaling_cur_freq", 1608000);  // capped by bigcore1-thermal
  tree.Write(cpufreq + "policy6/cpuinfo_max_freq", 2256000);
  for (int cpu = 0; cpu < 8; ++cpu) {
    const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(cpu);
    tree.Symlink("../cpufreq/policy" + std::to_string(policy_of[cpu]), dir + "/cpufreq");
    tree.Write(dir + "/topology/physical_package_id", 0);
  }
}

}  // namespace edgebench::testing
