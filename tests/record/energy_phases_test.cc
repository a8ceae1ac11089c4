// Energy with a method, on hand-built series whose counter follows a known power: the idle
// baseline from the idle window and the energy above it, only the measured phase counted, a
// counter that wraps, the prefill/decode split of a language model's requests, overlapping
// requests and a sensor that disappears.
#include "record/energy_phases.h"
#include "record/monitor_derive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace edgebench {
namespace {

constexpr int64_t kEnergyMs = 1'000'000;

// Power in mW as a function of the time in ms, piecewise constant; the counter (uJ, wrapping
// at 1,000,000) is its integral from -3000 ms: mW x ms = uJ.
double CounterUj(const std::function<double(int64_t)>& power_mw, int64_t t_ms) {
  double uj = 0;
  for (int64_t t = -3000; t < t_ms; ++t) uj += power_mw(t);
  return std::fmod(uj, 1'000'000.0);
}

MonitorSeries Rapl(const std::function<double(int64_t)>& power_mw, int64_t until_ms = 1100,
                   int64_t vanishes_after_ms = 1'000'000) {
  MonitorSeries s;
  Channel c;
  c.id = "rapl.intel-rapl:0";
  c.kind = ChannelKind::kEnergy;
  c.reader = "rapl";
  c.source = "sys/class/powercap/intel-rapl:0/energy_uj";
  c.wrap_uj = 1'000'000;
  c.device_total = true;
  s.channels = {c};
  s.values.assign(1, {});
  s.effective_hz = 10;
  for (int64_t t = -2500; t <= until_ms; t += 100) {
    s.t_ns.push_back(t * kEnergyMs);
    s.values[0].push_back(t > vanishes_after_ms ? std::optional<double>() : std::optional<double>(CounterUj(power_mw, t)));
  }
  s.marks = {{"idle", "start", -2000 * kEnergyMs}, {"idle", "end", -1000 * kEnergyMs}, {"measure", "start", 0}};
  return s;
}

MonitorContext Phase(int64_t queries, std::optional<int64_t> tokens = std::nullopt) {
  MonitorContext context;
  context.measured_wall_ns = 1000 * kEnergyMs;
  context.queries = queries;
  context.tokens = tokens;
  context.progress = {{0, 0.0}, {1000 * kEnergyMs, static_cast<double>(queries)}};
  return context;
}

// 500 mW idle, 3 W while the model loads (outside both windows), 2 W over the measured phase.
double LoadThenRun(int64_t t) { return t < -1000 ? 500.0 : t < 0 ? 3000.0 : t < 1000 ? 2000.0 : 3000.0; }

TEST(EnergyPhases, IdleIsSubtractedAndOnlyTheMeasuredPhaseCounts) {
  const MonitorSeries s = Rapl(LoadThenRun);
  const MonitorDerived d = DeriveMonitor(s, Phase(100));
  const EnergyResult& e = d.energy;
  ASSERT_TRUE(e.energy_mj) << e.reason;
  EXPECT_NEAR(*e.energy_mj, 2000.0, 1e-6);  // 2 W over 1 s; the load's 3 W left out
  EXPECT_GE(e.channels[0].wraps, 1);        // about 5.5 J through a 1 J counter
  EXPECT_EQ(e.idle_ns, 1000 * kEnergyMs);
  ASSERT_TRUE(e.idle_power_mw) << e.idle_reason;
  EXPECT_NEAR(*e.idle_power_mw, 500.0, 1e-6);
  EXPECT_NEAR(*e.mean_power_mw, 2000.0, 1e-6);
  EXPECT_NEAR(*e.above_idle_mj, 1500.0, 1e-6);
  EXPECT_NEAR(*e.above_idle_per_query_mj, 15.0, 1e-9);
  EXPECT_FALSE(e.above_idle_per_token_mj);
  EXPECT_DOUBLE_EQ(e.sample_hz, 10.0);
  ASSERT_EQ(e.sensors.size(), 1u);
  EXPECT_EQ(e.sensors[0],
            "rapl.intel-rapl:0 (sys/class/powercap/intel-rapl:0/energy_uj, an energy counter read in uJ, smallest "
            "step seen 5e+04 uJ)");
  // Without --idle's marks there is no idle figure, and nothing says there should be.
  MonitorSeries no_idle = s;
  no_idle.marks.erase(no_idle.marks.begin(), no_idle.marks.begin() + 2);
  const EnergyResult plain = DeriveMonitor(no_idle, Phase(100)).energy;
  EXPECT_FALSE(plain.idle_power_mw);
  EXPECT_TRUE(plain.idle_reason.empty());
}

TEST(EnergyPhases, ALanguageModelsEnergySplitsIntoPrefillAndDecode) {
  // Request 1: prefill 0-200 ms, decode 200-500 ms; request 2: prefill 500-600, decode 600-1000.
  // Prefill at 4 W, decode at 1 W.
  const auto power = [](int64_t t) {
    if (t < 0 || t >= 1000) return 500.0;
    return (t < 200 || (t >= 500 && t < 600)) ? 4000.0 : 1000.0;
  };
  MonitorContext context = Phase(2, 16);
  context.llm_phases = {{0, 200 * kEnergyMs, 500 * kEnergyMs, 30, 5}, {500 * kEnergyMs, 600 * kEnergyMs, 1000 * kEnergyMs, 10, 9}};
  const EnergyResult e = DeriveMonitor(Rapl(power), context).energy;
  ASSERT_TRUE(e.prefill_mj) << e.split_reason;
  EXPECT_NEAR(*e.prefill_mj, 1200.0, 1e-6);  // 4 W x 0.3 s
  EXPECT_NEAR(*e.decode_mj, 700.0, 1e-6);    // 1 W x 0.7 s
  EXPECT_NEAR(*e.prefill_per_token_mj, 30.0, 1e-9);  // 1200 mJ / 40 prompt tokens
  EXPECT_NEAR(*e.decode_per_token_mj, 50.0, 1e-9);   // 700 mJ / 14 decoded tokens
  EXPECT_NEAR(*e.energy_mj, 1900.0, 1e-6);
  EXPECT_NEAR(*e.above_idle_per_token_mj, (1900.0 - 500.0) / 16, 1e-9);

  // Requests that overlap cannot be split.
  context.llm_phases[1].start_ns = 400 * kEnergyMs;
  const EnergyResult overlapping = DeriveMonitor(Rapl(power), context).energy;
  EXPECT_FALSE(overlapping.prefill_mj);
  EXPECT_NE(overlapping.split_reason.find("requests overlap"), std::string::npos);
}

TEST(EnergyPhases, ASensorThatDisappearsMidRunLeavesNoFigureAndSaysWhy) {
  MonitorContext context = Phase(2, 16);
  context.llm_phases = {{0, 200 * kEnergyMs, 500 * kEnergyMs, 30, 5}, {500 * kEnergyMs, 600 * kEnergyMs, 1000 * kEnergyMs, 10, 9}};
  const EnergyResult e = DeriveMonitor(Rapl(LoadThenRun, 1100, 450), context).energy;
  EXPECT_FALSE(e.energy_mj);
  ASSERT_TRUE(e.idle_power_mw);  // the idle window was read before it vanished
  EXPECT_FALSE(e.above_idle_mj);
  EXPECT_NE(e.idle_reason.find("no energy above idle"), std::string::npos) << e.idle_reason;
  EXPECT_FALSE(e.prefill_mj);
  EXPECT_NE(e.split_reason.find("no prefill/decode split"), std::string::npos) << e.split_reason;
}

}  // namespace
}  // namespace edgebench
