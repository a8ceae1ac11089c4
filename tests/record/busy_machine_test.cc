// The busy-machine verdict from hand-built series with exact answers: the neighbours' share of
// the cores over the measured phase (and only over it), a starved worker, a quiet machine, a
// phase too short to judge, and missing channels.
#include "record/busy_machine.h"

#include <gtest/gtest.h>

#include <functional>

namespace edgebench {
namespace {

constexpr int64_t kMs = 1'000'000;
using Value = std::optional<double>;

Channel UtilChannel(int cpu) {
  Channel c;
  c.id = "cpu" + std::to_string(cpu) + ".util";
  c.kind = ChannelKind::kCpuUtil;
  c.cpu = cpu;
  return c;
}

Channel WorkerChannel() {
  Channel c;
  c.id = "process.cpu";
  c.kind = ChannelKind::kProcessCpu;
  return c;
}

// Two cores and the worker, sampled every 100 ms from -300 ms to `to_ms`; each value is the
// function of the sample's time (the interval it closes ends there).
MonitorSeries TwoCores(std::function<Value(int64_t)> cpu0, std::function<Value(int64_t)> cpu1,
                       std::function<Value(int64_t)> worker, int64_t to_ms = 1100) {
  MonitorSeries s;
  s.channels = {UtilChannel(0), UtilChannel(1), WorkerChannel()};
  s.values.assign(3, {});
  for (int64_t t = -300; t <= to_ms; t += 100) {
    s.t_ns.push_back(t * kMs);
    s.values[0].push_back(cpu0(t));
    s.values[1].push_back(cpu1(t));
    s.values[2].push_back(worker(t));
  }
  return s;
}

MonitorSettings Settings(double share = 0.25, bool allow = false) {
  MonitorSettings settings;
  settings.max_busy_share = share;
  settings.allow_busy = allow;
  return settings;
}

TEST(BusyMachine, NeighboursTakingACoreMakeTheCaseBusyWithTheFigures) {
  // Both cores full; the worker has one of them: the neighbours used 1.0 of 2 cores (50%).
  const auto full = [](int64_t) { return Value(100.0); };
  const auto one_core = [](int64_t) { return Value(100.0); };
  const BusyCheck b = CheckBusyMachine(TwoCores(full, full, one_core), 1000 * kMs, 2, Settings());
  ASSERT_TRUE(b.checked) << b.unchecked_reason;
  EXPECT_EQ(b.cores, 2);
  EXPECT_EQ(b.samples, 10);
  EXPECT_DOUBLE_EQ(b.machine_cores, 2.0);
  EXPECT_DOUBLE_EQ(b.worker_cores, 1.0);
  EXPECT_DOUBLE_EQ(b.others_cores, 1.0);
  EXPECT_DOUBLE_EQ(b.others_share, 0.5);
  EXPECT_TRUE(b.busy);
  // Two threads asked for two cores and got one: starved as well, and both said.
  EXPECT_DOUBLE_EQ(b.worker_share_of_asked, 0.5);
  EXPECT_TRUE(b.starved);
  EXPECT_FALSE(b.kept);
  EXPECT_EQ(b.reason,
            "busy machine: other processes used 1.00 of the 2 cores (50%, above the 25% allowed) during the measured "
            "phase; the worker got 1.00 cores of the 2 its threads asked for (50%, below 60%) while other processes "
            "used 1.00 (the machine 2.00 cores, the worker 1.00)");
  // --allow-busy keeps it, with the same figures.
  EXPECT_TRUE(CheckBusyMachine(TwoCores(full, full, one_core), 1000 * kMs, 2, Settings(0.25, true)).kept);
}

TEST(BusyMachine, OnlyTheMeasuredPhaseCounts) {
  // A build beside the worker until the phase starts (t <= 0), then quiet: one core for the
  // worker, the other idle. The samples before the phase do not enter the averages.
  const auto cpu0 = [](int64_t) { return Value(100.0); };
  const auto cpu1 = [](int64_t t) { return Value(t <= 0 ? 100.0 : 0.0); };
  const auto worker = [](int64_t) { return Value(100.0); };
  const BusyCheck b = CheckBusyMachine(TwoCores(cpu0, cpu1, worker), 1000 * kMs, 1, Settings());
  ASSERT_TRUE(b.checked);
  EXPECT_DOUBLE_EQ(b.others_cores, 0.0);
  EXPECT_FALSE(b.busy);
  EXPECT_FALSE(b.starved);
  EXPECT_TRUE(b.reason.empty());
  // The interval that straddles the phase's end counts for the part inside it: with a 1050 ms
  // phase the sample at 1100 ms weighs half. Neighbours at 40% of a core in that interval only:
  // 0.4 x 50 / 1050 of a core over the phase.
  const auto late = [](int64_t t) { return Value(t == 1100 ? 40.0 : t <= 0 ? 100.0 : 0.0); };
  const BusyCheck tail = CheckBusyMachine(TwoCores(cpu0, late, worker), 1050 * kMs, 1, Settings());
  ASSERT_TRUE(tail.checked);
  EXPECT_EQ(tail.samples, 11);
  EXPECT_NEAR(tail.others_cores, 0.4 * 50.0 / 1050.0, 1e-12);
}

TEST(BusyMachine, TheShareIsAStatedBoundNotAGuess) {
  // Neighbours at 0.5 of a core on 2 cores: 25%, which is not above 25%, and is above 20%.
  const auto cpu0 = [](int64_t) { return Value(100.0); };
  const auto cpu1 = [](int64_t) { return Value(50.0); };
  const auto worker = [](int64_t) { return Value(100.0); };
  EXPECT_FALSE(CheckBusyMachine(TwoCores(cpu0, cpu1, worker), 1000 * kMs, 1, Settings(0.25)).busy);
  EXPECT_TRUE(CheckBusyMachine(TwoCores(cpu0, cpu1, worker), 1000 * kMs, 1, Settings(0.20)).busy);
}

TEST(BusyMachine, AWorkerThatLacksCpuOnlyBecauseItIdlesIsNotStarved) {
  // Two threads asked, 0.3 cores used (a server scenario at a low rate), nobody else: idle, not
  // starved. The same worker beside neighbours who took 1.2 cores is starved.
  const auto low = [](int64_t) { return Value(30.0); };
  const auto idle = [](int64_t) { return Value(0.0); };
  const BusyCheck quiet = CheckBusyMachine(TwoCores(low, idle, low), 1000 * kMs, 2, Settings(1.0));
  ASSERT_TRUE(quiet.checked);
  EXPECT_FALSE(quiet.starved);
  const auto taken = [](int64_t) { return Value(90.0); };
  const auto rest = [](int64_t) { return Value(60.0); };
  const BusyCheck starved = CheckBusyMachine(TwoCores(taken, rest, low), 1000 * kMs, 2, Settings(1.0));
  EXPECT_DOUBLE_EQ(starved.others_cores, 1.2);
  EXPECT_FALSE(starved.busy);  // a share of 1.0 allows any neighbour
  EXPECT_TRUE(starved.starved);
  // A target that states no thread count is not judged for starvation.
  EXPECT_FALSE(CheckBusyMachine(TwoCores(taken, rest, low), 1000 * kMs, 0, Settings(1.0)).starved);
}

TEST(BusyMachine, NoVerdictWithoutTheChannelsOrOnTooShortAPhase) {
  const auto full = [](int64_t) { return Value(100.0); };
  MonitorSeries no_worker = TwoCores(full, full, full);
  no_worker.channels.pop_back();
  no_worker.values.pop_back();
  const BusyCheck a = CheckBusyMachine(no_worker, 1000 * kMs, 1, Settings());
  EXPECT_FALSE(a.checked);
  EXPECT_EQ(a.unchecked_reason, "the worker's own CPU time was not sampled");
  // 50 ms of phase: one interval overlaps it.
  const BusyCheck b = CheckBusyMachine(TwoCores(full, full, full), 50 * kMs, 1, Settings());
  EXPECT_FALSE(b.checked);
  EXPECT_FALSE(b.busy);
  EXPECT_EQ(b.unchecked_reason,
            "the samples cover 100% of the 0.050 s measured phase in 1 interval(s); a verdict needs half of it in two "
            "intervals");
  // A core that stopped reading: its intervals leave the averages, the rest still judge.
  const auto gap = [](int64_t t) { return t > 0 && t <= 500 ? Value() : Value(100.0); };
  const BusyCheck c = CheckBusyMachine(TwoCores(full, gap, full), 1000 * kMs, 1, Settings());
  ASSERT_TRUE(c.checked);
  EXPECT_EQ(c.samples, 5);
}

}  // namespace
}  // namespace edgebench
