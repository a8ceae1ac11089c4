// The monitor's derived figures from hand-built series with exact answers: energy across a
// RAPL wraparound, power rails, totals and their parts, throttling by frequency, counter, trip
// point and NVML bits, memory growth with and without a leak, a sensor that vanishes.
#include "record/monitor_derive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace edgebench {
namespace {

constexpr int64_t kMs = 1'000'000;

using Value = std::optional<double>;

Channel MakeChannel(const std::string& id, ChannelKind kind, int cpu = -1) {
  Channel c;
  c.id = id;
  c.kind = kind;
  c.label = id;
  c.cpu = cpu;
  return c;
}

// Samples every `period_ms` from `from_ms` to `to_ms` inclusive; each channel's value from its
// function of the time in ms (nullopt: not read).
struct SeriesBuilder {
  MonitorSeries series;
  std::vector<std::function<Value(int64_t)>> functions;

  SeriesBuilder& Add(Channel c, std::function<Value(int64_t)> f) {
    series.channels.push_back(std::move(c));
    functions.push_back(std::move(f));
    return *this;
  }
  MonitorSeries Build(int64_t from_ms, int64_t to_ms, int64_t period_ms = 100) {
    series.effective_hz = 1000.0 / static_cast<double>(period_ms);
    series.values.assign(series.channels.size(), {});
    for (int64_t t = from_ms; t <= to_ms; t += period_ms) {
      series.t_ns.push_back(t * kMs);
      for (size_t c = 0; c < functions.size(); ++c) series.values[c].push_back(functions[c](t));
    }
    return series;
  }
};

MonitorContext Context(int64_t wall_ms, int64_t queries = 0) {
  MonitorContext context;
  context.measured_wall_ns = wall_ms * kMs;
  context.window_ns = 1000 * kMs;
  context.queries = queries;
  // Queries complete evenly over the phase.
  context.progress = {{0, 0.0}, {wall_ms * kMs, static_cast<double>(queries)}};
  return context;
}

TEST(MonitorEnergy, RaplCounterAcrossItsWraparound) {
  // 50,000 uJ per 100 ms (500 mW) on a counter that wraps at 1,000,000 uJ, starting at 900,000
  // 100 ms before the phase: it wraps at t = 100 ms.
  Channel rapl = MakeChannel("rapl.intel-rapl:0", ChannelKind::kEnergy);
  rapl.wrap_uj = 1'000'000;
  rapl.device_total = true;
  const MonitorSeries series =
      SeriesBuilder()
          .Add(rapl, [](int64_t t) { return Value(std::fmod(900'000.0 + 500.0 * static_cast<double>(t + 100), 1e6)); })
          .Build(-100, 1100);
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 250));
  ASSERT_TRUE(d.energy.energy_mj) << d.energy.reason;
  EXPECT_DOUBLE_EQ(*d.energy.energy_mj, 500.0);
  EXPECT_DOUBLE_EQ(*d.energy.mean_power_mw, 500.0);
  EXPECT_DOUBLE_EQ(*d.energy.peak_power_mw, 500.0);
  EXPECT_DOUBLE_EQ(*d.energy.per_query_mj, 2.0);
  ASSERT_EQ(d.energy.channels.size(), 1u);
  EXPECT_EQ(d.energy.channels[0].wraps, 1);
  EXPECT_EQ(d.energy.total_channels, std::vector<std::string>{"rapl.intel-rapl:0"});
}

TEST(MonitorEnergy, ACounterThatGoesBackWithoutAWrapRangeIsNotEnergy) {
  Channel rapl = MakeChannel("rapl.intel-rapl:0", ChannelKind::kEnergy);
  rapl.device_total = true;  // wrap_uj unknown
  const MonitorSeries series =
      SeriesBuilder()
          .Add(rapl, [](int64_t t) { return Value(std::fmod(900'000.0 + 500.0 * static_cast<double>(t + 100), 1e6)); })
          .Build(-100, 1100);
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 250));
  EXPECT_FALSE(d.energy.energy_mj);
  EXPECT_NE(d.energy.reason.find("max_energy_range_uj"), std::string::npos) << d.energy.reason;
}

// A counter that goes back by less than its range is a wrap only when the power a wrap would
// mean is one the sensor can read; otherwise it is a reset (a driver reload), and the energy
// over the phase is unknown rather than a wrap's 262 kJ.
TEST(MonitorEnergy, ACounterThatGoesBackFartherThanAWrapExplainsIsAResetNotAWrap) {
  Channel rapl = MakeChannel("rapl.intel-rapl:0", ChannelKind::kEnergy);
  rapl.reader = "rapl";
  rapl.wrap_uj = 262'143'328'850;
  rapl.device_total = true;
  const MonitorSeries series =
      SeriesBuilder()
          .Add(rapl, [](int64_t t) {
            // 500 mW, reset to 0 at t = 500 ms.
            return Value(t < 500 ? 5'000'000.0 + 500.0 * static_cast<double>(t + 100) : 500.0 * static_cast<double>(t - 500));
          })
          .Build(-100, 1100);
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 250));
  EXPECT_FALSE(d.energy.energy_mj) << "a reset taken for a wrap gives " << d.energy.energy_mj.value_or(0) << " mJ";
  EXPECT_FALSE(d.energy.per_query_mj);
  EXPECT_NE(d.energy.reason.find("a reset or a reload of the sensor, not a wrap"), std::string::npos) << d.energy.reason;
  EXPECT_NE(d.energy.reason.find("above the 1000 W such a sensor reads"), std::string::npos) << d.energy.reason;
  EXPECT_EQ(d.energy.channels.at(0).wraps, 0);
}

// A reading that implies an absurd power (a counter glitch, a rail reading 50 kW) is dropped
// with a note; the energy comes from the readings around it.
TEST(MonitorEnergy, AbsurdReadingsAreDroppedWithANoteAndNeverReachEnergyPerQuery) {
  Channel rapl = MakeChannel("rapl.intel-rapl:0", ChannelKind::kEnergy);
  rapl.reader = "rapl";
  rapl.wrap_uj = 262'143'328'850;
  rapl.device_total = true;
  const MonitorSeries counter =
      SeriesBuilder()
          .Add(rapl, [](int64_t t) {
            const double v = 1000.0 * static_cast<double>(t + 1000);  // 1 W
            return Value(t == 400 ? v + 1e12 : v);                     // one glitch: 10 MW
          })
          .Build(-100, 1100);
  const MonitorDerived d = DeriveMonitor(counter, Context(1000, 100));
  ASSERT_TRUE(d.energy.energy_mj) << d.energy.reason;
  EXPECT_NEAR(*d.energy.energy_mj, 1000.0, 1e-6);
  EXPECT_NEAR(*d.energy.per_query_mj, 10.0, 1e-9);
  EXPECT_LE(*d.energy.peak_power_mw, 1000.0 + 1e-6) << "the glitch reached the peak power";
  ASSERT_EQ(d.energy.channels.at(0).notes.size(), 1u);
  EXPECT_NE(d.energy.channels[0].notes[0].find("1 reading(s) dropped as physically absurd"), std::string::npos)
      << d.energy.channels[0].notes[0];

  Channel rail = MakeChannel("hwmon0.power1", ChannelKind::kPower);
  rail.reader = "hwmon";
  rail.device_total = true;
  const MonitorSeries power =
      SeriesBuilder()
          .Add(rail, [](int64_t t) { return Value(t == 500 ? 50e9 : 2e6); })  // 2 W, one 50 kW reading (uW)
          .Build(-100, 1100);
  const MonitorDerived p = DeriveMonitor(power, Context(1000, 100));
  ASSERT_TRUE(p.energy.energy_mj) << p.energy.reason;
  EXPECT_NEAR(*p.energy.energy_mj, 2000.0, 1e-6);
  EXPECT_NEAR(*p.energy.peak_power_mw, 2000.0, 1e-6);
  ASSERT_EQ(p.energy.channels.at(0).notes.size(), 1u);
  EXPECT_NE(p.energy.channels[0].notes[0].find("read 5e+04 W (the bound is 0 to 3000 W)"), std::string::npos)
      << p.energy.channels[0].notes[0];
}

TEST(MonitorEnergy, BoundsBetweenSamplesAreInterpolated) {
  // 1 uJ per us (1 W) sampled every 100 ms; the phase is [0, 250 ms): 250 mJ.
  Channel rapl = MakeChannel("rapl.intel-rapl:0", ChannelKind::kEnergy);
  rapl.device_total = true;
  const MonitorSeries series =
      SeriesBuilder().Add(rapl, [](int64_t t) { return Value(1000.0 * static_cast<double>(t + 1000)); }).Build(-50, 350);
  const MonitorDerived d = DeriveMonitor(series, Context(250, 10));
  ASSERT_TRUE(d.energy.energy_mj) << d.energy.reason;
  EXPECT_NEAR(*d.energy.energy_mj, 250.0, 1e-9);
  EXPECT_NEAR(*d.energy.per_query_mj, 25.0, 1e-9);
}

TEST(MonitorEnergy, PowerRailsIntegrateByTrapezoidsAndPartsAreNotAdded) {
  // A Jetson-like board: the input rail is the total (2 W, then 4 W from 500 ms); the CPU rail
  // is part of it and must not be added.
  Channel in = MakeChannel("hwmon1.rail_power1", ChannelKind::kPower);
  in.device_total = true;
  Channel cpu = MakeChannel("hwmon1.rail_power2", ChannelKind::kPower);
  cpu.part_of_total = true;
  const MonitorSeries series = SeriesBuilder()
                                   .Add(in, [](int64_t t) { return Value(t < 500 ? 2e6 : 4e6); })
                                   .Add(cpu, [](int64_t) { return Value(1e6); })
                                   .Build(0, 1000);
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 100));
  ASSERT_TRUE(d.energy.energy_mj) << d.energy.reason;
  // 2 W for 0.4 s, a ramp 2 -> 4 W over 0.4..0.5 s (0.3 J), 4 W for 0.5 s: 0.8 + 0.3 + 2.0 J.
  EXPECT_NEAR(*d.energy.energy_mj, 3100.0, 1e-6);
  EXPECT_NEAR(*d.energy.peak_power_mw, 4000.0, 1e-9);
  EXPECT_NEAR(*d.energy.per_query_mj, 31.0, 1e-9);
  EXPECT_EQ(d.energy.total_channels, std::vector<std::string>{"hwmon1.rail_power1"});
  ASSERT_EQ(d.energy.channels.size(), 2u);
  EXPECT_NEAR(*d.energy.channels[1].energy_mj, 1000.0, 1e-6);  // the part, shown on its own
}

TEST(MonitorEnergy, NoTotalChannelMeansNoTotalAndSaysWhy) {
  Channel psys = MakeChannel("rapl.intel-rapl:1", ChannelKind::kEnergy);
  const MonitorSeries series =
      SeriesBuilder().Add(psys, [](int64_t t) { return Value(1000.0 * static_cast<double>(t + 1000)); }).Build(0, 1000);
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 10));
  EXPECT_FALSE(d.energy.energy_mj);
  EXPECT_FALSE(d.energy.per_query_mj);
  EXPECT_NE(d.energy.reason.find("no channel measures the device's total"), std::string::npos);
  ASSERT_EQ(d.energy.channels.size(), 1u);
  EXPECT_NEAR(*d.energy.channels[0].energy_mj, 1000.0, 1e-6);
}

TEST(MonitorEnergy, NoSensorAtAllSaysWhichReadersFoundNothingAndWhy) {
  SeriesBuilder builder;
  builder.series.readers = {{"rapl", false, "absent: /sys/class/powercap does not exist"},
                            {"hwmon", false, "absent: /sys/class/hwmon does not exist"}};
  const MonitorSeries series = builder.Add(MakeChannel("process.rss", ChannelKind::kRss), [](int64_t) {
                                        return Value(1e8);
                                      }).Build(0, 1000);
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 10));
  EXPECT_FALSE(d.energy.energy_mj);
  EXPECT_EQ(d.energy.reason,
            "no energy or power sensor (rapl: absent: /sys/class/powercap does not exist; hwmon: absent: "
            "/sys/class/hwmon does not exist)");
}

TEST(MonitorEnergy, ASensorThatVanishesMidRunGivesNoEnergyAndSaysWhen) {
  Channel rapl = MakeChannel("rapl.intel-rapl:0", ChannelKind::kEnergy);
  rapl.device_total = true;
  SeriesBuilder builder;
  builder.Add(rapl, [](int64_t t) { return t < 500 ? Value(1000.0 * static_cast<double>(t + 1000)) : std::nullopt; });
  MonitorSeries series = builder.Build(-100, 1100);
  series.failures.push_back({0, 500 * kMs, "sys/class/powercap/intel-rapl:0/energy_uj: No such file or directory"});
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 10));
  EXPECT_FALSE(d.energy.energy_mj);
  EXPECT_NE(d.energy.reason.find("stopped reading 0.500 s after the measured phase started"), std::string::npos)
      << d.energy.reason;
  EXPECT_NE(d.energy.reason.find("No such file"), std::string::npos);
  EXPECT_FALSE(d.windows.empty());
  EXPECT_FALSE(d.windows[0].mean_power_mw);  // never a zero for what was not read
}

// Four cores at 2 GHz; cores 0 and 1 busy; `freq(t)` for the busy cores from t.
MonitorSeries Cores(const std::function<double(int64_t)>& busy_khz, int64_t to_ms,
                    const std::function<double(int64_t)>& idle_khz = [](int64_t) { return 2e6; }) {
  SeriesBuilder builder;
  for (int cpu = 0; cpu < 4; ++cpu) {
    const bool busy = cpu < 2;
    builder.Add(MakeChannel("cpu" + std::to_string(cpu) + ".util", ChannelKind::kCpuUtil, cpu),
                [busy](int64_t) { return Value(busy ? 97.0 : 3.0); });
    builder.Add(MakeChannel("cpu" + std::to_string(cpu) + ".freq", ChannelKind::kFrequency, cpu),
                [busy, busy_khz, idle_khz](int64_t t) { return Value(busy ? busy_khz(t) : idle_khz(t)); });
  }
  return builder.Build(0, to_ms);
}

TEST(MonitorThrottling, BusyCoresBelowTheFirstWindowForOverTwoSecondsIsAnEvent) {
  // 20% below 2 GHz from 4.0 s to 7.0 s.
  const MonitorSeries series = Cores([](int64_t t) { return t >= 4000 && t < 7000 ? 1.6e6 : 2e6; }, 10'000);
  const MonitorDerived d = DeriveMonitor(series, Context(10'000, 1000));
  EXPECT_EQ(d.baseline_frequency_khz, 2e6);
  ASSERT_EQ(d.throttling.size(), 1u);
  EXPECT_EQ(d.throttling[0].kind, "frequency");
  EXPECT_EQ(d.throttling[0].start_ns, 4000 * kMs);
  EXPECT_EQ(d.throttling[0].end_ns, 7000 * kMs);
  EXPECT_EQ(d.throttling[0].detail,
            "busy cores fell to 1600 MHz, 20% below the first window's 2000 MHz, for 3.0 s");
  // The windows of 1 s that overlap it say so.
  ASSERT_EQ(d.windows.size(), 10u);
  EXPECT_EQ(d.windows[3].throttle_events, 0);
  EXPECT_EQ(d.windows[4].throttle_events, 1);
  EXPECT_EQ(d.windows[6].throttle_events, 1);
  EXPECT_EQ(d.windows[4].busy_frequency_khz, 1.6e6);
  EXPECT_EQ(d.windows[8].busy_frequency_khz, 2e6);
}

TEST(MonitorThrottling, ShortOrShallowDropsAndIdleCoresAreNotEvents) {
  // 1.5 s at 20% below; then 5 s at 10% below; idle cores down to 800 MHz throughout.
  const MonitorSeries series = Cores(
      [](int64_t t) {
        if (t >= 2000 && t < 3500) return 1.6e6;
        if (t >= 5000 && t < 10'000) return 1.8e6;
        return 2e6;
      },
      12'000, [](int64_t t) { return t < 1000 ? 2e6 : 0.8e6; });
  const MonitorDerived d = DeriveMonitor(series, Context(12'000, 1000));
  EXPECT_TRUE(d.throttling.empty()) << d.throttling[0].detail;
  EXPECT_EQ(d.baseline_frequency_khz, 2e6);
}

TEST(MonitorThrottling, WithoutFrequencyChannelsTheCheckSaysWhy) {
  SeriesBuilder builder;
  builder.series.readers = {{"cpufreq", false, "absent: no cpufreq under /sys/devices/system/cpu"}};
  const MonitorSeries series =
      builder.Add(MakeChannel("process.rss", ChannelKind::kRss), [](int64_t) { return Value(1e8); }).Build(0, 3000);
  const MonitorDerived d = DeriveMonitor(series, Context(3000, 10));
  EXPECT_FALSE(d.baseline_frequency_khz);
  EXPECT_EQ(d.frequency_check,
            "not checked: no core frequency channel (cpufreq: absent: no cpufreq under /sys/devices/system/cpu)");
}

TEST(MonitorThrottling, ACounterThatRisesIsAnEventWithItsIncrease) {
  Channel counter = MakeChannel("cpu0.package_throttle", ChannelKind::kThrottleCount);
  counter.label = "package_throttle_count";
  const MonitorSeries series = SeriesBuilder()
                                   .Add(counter, [](int64_t t) { return Value(t < 1500 ? 3 : t < 1600 ? 4 : 5); })
                                   .Build(-500, 3000);
  const MonitorDerived d = DeriveMonitor(series, Context(3000, 10));
  ASSERT_EQ(d.throttling.size(), 1u);
  EXPECT_EQ(d.throttling[0].kind, "throttle_counter");
  EXPECT_EQ(d.throttling[0].start_ns, 1400 * kMs);
  EXPECT_EQ(d.throttling[0].end_ns, 1600 * kMs);
  EXPECT_EQ(d.throttling[0].detail, "package_throttle_count rose by 2");
}

TEST(MonitorThrottling, CrossingAPassiveTripPointIsAnEventACriticalOneIsNotChecked) {
  Channel zone = MakeChannel("thermal.thermal_zone0", ChannelKind::kTemperature);
  zone.label = "x86_pkg_temp";
  zone.trips = {{95'000, "passive"}, {105'000, "critical"}};
  const MonitorSeries series =
      SeriesBuilder()
          .Add(zone, [](int64_t t) { return Value(t >= 2000 && t < 2600 ? 96'500.0 : 80'000.0); })
          .Build(0, 4000);
  const MonitorDerived d = DeriveMonitor(series, Context(4000, 10));
  ASSERT_EQ(d.throttling.size(), 1u);
  EXPECT_EQ(d.throttling[0].kind, "trip_point");
  EXPECT_EQ(d.throttling[0].start_ns, 2000 * kMs);
  EXPECT_EQ(d.throttling[0].end_ns, 2600 * kMs);
  EXPECT_EQ(d.throttling[0].detail, "x86_pkg_temp reached 96.5 C, at or over its passive trip point 95.0 C");
  EXPECT_EQ(d.windows[2].max_temperature_mc, 96'500.0);
  EXPECT_EQ(d.windows[0].max_temperature_mc, 80'000.0);
}

TEST(MonitorThrottling, NvmlSlowdownBitsAreEventsIdleAndApplicationClocksAreNot) {
  Channel reasons = MakeChannel("nvml0.throttle_reasons", ChannelKind::kThrottleReasons);
  reasons.label = "GPU 0";
  const MonitorSeries series = SeriesBuilder()
                                   .Add(reasons,
                                        [](int64_t t) {
                                          if (t < 1000) return Value(0x1 | 0x2);
                                          if (t < 1500) return Value(0x40 | 0x4);
                                          return Value(0.0);
                                        })
                                   .Build(0, 3000);
  const MonitorDerived d = DeriveMonitor(series, Context(3000, 10));
  ASSERT_EQ(d.throttling.size(), 1u);
  EXPECT_EQ(d.throttling[0].kind, "gpu_throttle");
  EXPECT_EQ(d.throttling[0].start_ns, 1000 * kMs);
  EXPECT_EQ(d.throttling[0].end_ns, 1500 * kMs);
  EXPECT_EQ(d.throttling[0].detail, "GPU 0 reported SW power cap, HW thermal slowdown");
}

MonitorSeries Rss(const std::function<double(int64_t)>& bytes_at_ms, int64_t to_ms) {
  SeriesBuilder builder;
  builder.Add(MakeChannel("process.rss", ChannelKind::kRss), [&](int64_t t) { return Value(bytes_at_ms(t)); });
  builder.Add(MakeChannel("process.rss_peak", ChannelKind::kRssPeak), [&](int64_t t) { return Value(bytes_at_ms(t) + 4096); });
  return builder.Build(0, to_ms);
}

TEST(MonitorMemory, AFixedLeakPerQueryIsMeasuredExactlyAndFlagged) {
  // 1,000 queries/s for 2 s, 64 KiB kept by each.
  const MonitorSeries series = Rss([](int64_t t) { return 100e6 + 65536.0 * static_cast<double>(t); }, 2000);
  const MonitorDerived d = DeriveMonitor(series, Context(2000, 2000));
  ASSERT_TRUE(d.memory.growth_bytes_per_query);
  EXPECT_NEAR(*d.memory.growth_bytes_per_query, 65536.0, 1e-6);
  EXPECT_NEAR(d.memory.fit_r2, 1.0, 1e-12);
  EXPECT_EQ(d.memory.fit_points, 21);
  EXPECT_NEAR(*d.memory.projected_mb_per_10k_queries, 625.0, 1e-9);
  EXPECT_TRUE(d.memory.leak);
  EXPECT_EQ(d.memory.peak_rss_bytes, static_cast<int64_t>(100e6 + 65536.0 * 2000 + 4096));
  EXPECT_EQ(d.memory.explanation.rfind("memory growth: RSS grew 65536 bytes per query", 0), 0u)
      << d.memory.explanation;
}

TEST(MonitorMemory, GrowthOnAProfiledCaseIsTheProfilersNotALeak) {
  // The same 64 KiB per query, with the runtime's profiler on: its event buffer grows with every
  // query (ONNX Runtime's kept 1.6 GB over 68,000), so the growth is not called a leak.
  const MonitorSeries series = Rss([](int64_t t) { return 100e6 + 65536.0 * static_cast<double>(t); }, 2000);
  MonitorContext context = Context(2000, 2000);
  context.profiler = "ONNX Runtime's profiler";
  const MonitorDerived d = DeriveMonitor(series, context);
  EXPECT_FALSE(d.memory.leak);
  EXPECT_TRUE(d.memory.profiler_growth);
  EXPECT_NEAR(*d.memory.growth_bytes_per_query, 65536.0, 1e-6);
  EXPECT_EQ(d.memory.explanation.rfind("profiler growth: RSS grew 65536 bytes per query", 0), 0u)
      << d.memory.explanation;
  EXPECT_NE(d.memory.explanation.find("not called a leak: ONNX Runtime's profiler kept its events in memory"),
            std::string::npos)
      << d.memory.explanation;
  // Flat memory under the profiler is no growth at all.
  const MonitorDerived flat = DeriveMonitor(Rss([](int64_t) { return 100e6; }, 2000), context);
  EXPECT_FALSE(flat.memory.leak);
  EXPECT_FALSE(flat.memory.profiler_growth);
}

TEST(MonitorMemory, FlatMemoryWithAllocatorNoiseIsNoLeak) {
  const MonitorSeries series =
      Rss([](int64_t t) { return 100e6 + ((t / 100) % 2 == 0 ? 0.0 : 8192.0); }, 2000);
  const MonitorDerived d = DeriveMonitor(series, Context(2000, 2000));
  ASSERT_TRUE(d.memory.growth_bytes_per_query);
  EXPECT_LT(std::abs(*d.memory.growth_bytes_per_query), 100.0);
  EXPECT_FALSE(d.memory.leak);
  EXPECT_EQ(d.memory.explanation.rfind("no leak: ", 0), 0u);
}

TEST(MonitorMemory, ASteepSlopeOverTooLittleGrowthIsNotCalledALeak) {
  // 100 queries, 4 KiB each: 0.4 MB seen, 39 MB per 10,000 projected.
  const MonitorSeries series = Rss([](int64_t t) { return 100e6 + 4096.0 * static_cast<double>(t) / 10; }, 1000);
  const MonitorDerived d = DeriveMonitor(series, Context(1000, 100));
  EXPECT_FALSE(d.memory.leak);
  EXPECT_NE(d.memory.explanation.find("under the 1 MB of growth that must be seen"), std::string::npos)
      << d.memory.explanation;
}

TEST(MonitorMemory, GrowthOverAFewQueriesIsNotCalledALeak) {
  // Three slow requests (a vision-language model's) with 2.2 MB of allocator warm-up between
  // them: a clean, steep fit, but over too few queries to project from.
  const MonitorSeries series = Rss([](int64_t t) { return 100e6 + 750.0 * static_cast<double>(t); }, 3000);
  const MonitorDerived d = DeriveMonitor(series, Context(3000, 3));
  ASSERT_TRUE(d.memory.projected_mb_per_10k_queries);
  EXPECT_GT(*d.memory.projected_mb_per_10k_queries, 1000.0);
  EXPECT_NEAR(d.memory.fit_r2, 1.0, 1e-9);
  EXPECT_FALSE(d.memory.leak);
  EXPECT_NE(d.memory.explanation.find("at least 10 are needed before a leak is called"), std::string::npos)
      << d.memory.explanation;
}

TEST(MonitorMemory, ALooseFitIsNotCalledALeak) {
  // A 2 KiB-per-query trend (4 MB over 2,000 queries) under 100 MB swings between samples.
  const MonitorSeries series = Rss(
      [](int64_t t) { return 100e6 + ((t / 100) % 2 == 0 ? 0.0 : 100e6) + 2048.0 * static_cast<double>(t); }, 2000);
  const MonitorDerived d = DeriveMonitor(series, Context(2000, 2000));
  ASSERT_TRUE(d.memory.projected_mb_per_10k_queries);
  EXPECT_GT(*d.memory.projected_mb_per_10k_queries, 10.0);
  EXPECT_LT(d.memory.fit_r2, 0.5);
  EXPECT_FALSE(d.memory.leak);
  EXPECT_NE(d.memory.explanation.find("the fit is too loose to call a leak"), std::string::npos)
      << d.memory.explanation;
}

TEST(MonitorMemory, TooFewSamplesGiveNoFigureAndSaySo) {
  const MonitorSeries series = Rss([](int64_t) { return 100e6; }, 300);
  const MonitorDerived d = DeriveMonitor(series, Context(300, 30));
  EXPECT_FALSE(d.memory.growth_bytes_per_query);
  EXPECT_EQ(d.memory.explanation,
            "no growth figure: 4 memory samples in the measured phase, fewer than 5 (run longer or raise "
            "--sample-hz)");
}

}  // namespace
}  // namespace edgebench
