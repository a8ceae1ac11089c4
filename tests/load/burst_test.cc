// burst:N (load/scenarios/burst.h), the scenario added through the registry: its name, its plan,
// and its run on null sessions.
#include "load/scenarios/burst.h"

#include <gtest/gtest.h>

#include "load/scenario_registry.h"
#include "null_sessions.h"

namespace edgebench {
namespace {

TEST(Burst, ItsNameParsesAndPrintsThroughTheRegistry) {
  auto spec = ParseScenario("burst:4");
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec.value().entry, &kBurstScenario);
  EXPECT_EQ(spec.value().family(), "burst");
  EXPECT_EQ(spec.value().streams, 4);
  EXPECT_EQ(spec.value().Canonical(), "burst:4/100ms");
  EXPECT_EQ(ParseScenario("burst:8/50ms").value().Canonical(), "burst:8/50ms");
  EXPECT_EQ(ParseScenario("burst:8/2s").value().period_ms, 2000);
  for (const char* bad : {"burst", "burst:", "burst:0", "burst:1025", "burst:x", "burst:2/", "burst:2/0ms", "burst:-1"}) {
    auto parsed = ParseScenario(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().find("burst:N[/PERIOD]"), std::string::npos) << parsed.error();
  }
  bool listed = false;
  for (const std::string& name : ScenarioNames()) listed = listed || name == "burst:N[/PERIOD]";
  EXPECT_TRUE(listed);
  auto made = MakeScenario("burst:3/10ms", RunSettings{}, LlmSettings{});
  ASSERT_TRUE(made.ok()) << made.error();
  EXPECT_EQ(made.value()->name(), "burst:3/10ms");
  EXPECT_EQ(made.value()->sessions_needed(), 3);
  EXPECT_EQ(made.value()->streams(), 3);
}

TEST(Burst, ThePlanCoversBothMinimaWithinTheMaxima) {
  RunSettings s;
  s.warmup_queries = 10;
  s.min_queries = 100;
  s.min_duration_ms = 0;
  s.max_duration_ms = 60'000;
  BurstPlan plan = PlanBursts(4, 100, s);
  EXPECT_EQ(plan.bursts, 25);  // 100 queries / 4
  EXPECT_EQ(plan.warmup_per_stream, 3);
  s.min_duration_ms = 5000;
  EXPECT_EQ(PlanBursts(4, 100, s).bursts, 50);  // 5 s / 100 ms
  s.max_duration_ms = 2000;
  s.min_duration_ms = 2000;
  EXPECT_EQ(PlanBursts(4, 100, s).bursts, 20);  // at most 2 s of bursts
  s.max_queries = 8;
  s.min_queries = 8;
  EXPECT_EQ(PlanBursts(4, 100, s).bursts, 2);
}

BurstPlan Plan(int streams, int64_t period_ms, int64_t bursts, int64_t warmup_per_stream = 0) {
  BurstPlan plan;
  plan.streams = streams;
  plan.period_ns = period_ms * 1'000'000;
  plan.bursts = bursts;
  plan.warmup_per_stream = warmup_per_stream;
  plan.max_duration_ns = 10'000'000'000;
  return plan;
}

TEST(Burst, EveryBurstIssuesOneQueryPerStreamAtItsScheduledStart) {
  auto sessions = testing::MakeNullSessions("null:sleep?us=1000", 3);
  const BurstPlan plan = Plan(3, 10, 8, 1);
  const ScenarioResult r = RunBursts(sessions->raw, sessions->pool, plan);
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  EXPECT_EQ(r.warmup.latency_ns.size(), 3u);
  ASSERT_EQ(r.measured.latency_ns.size(), 24u);
  ASSERT_EQ(r.measured.stream.size(), 24u);
  for (size_t i = 0; i < 24; ++i) {
    EXPECT_EQ(r.measured.issue_ns[i], static_cast<int64_t>(i / 3) * plan.period_ns) << i;
    EXPECT_EQ(r.measured.stream[i], static_cast<int32_t>(i % 3)) << i;
    EXPECT_GE(r.measured.latency_ns[i], 1'000'000) << "a query of a 1 ms session";
  }
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
  EXPECT_GE(r.measured_wall_ns, 7 * plan.period_ns);
}

// A burst that overruns its period delays the next, and the wait counts: latency runs from the
// scheduled start, as a camera's frame waits for the last one to finish.
TEST(Burst, ABurstThatOverrunsItsPeriodDelaysTheNextAndTheWaitIsMeasured) {
  auto sessions = testing::MakeNullSessions("null:sleep?us=15000", 1);
  const BurstPlan plan = Plan(1, 5, 4);
  const ScenarioResult r = RunBursts(sessions->raw, sessions->pool, plan);
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  ASSERT_EQ(r.measured.latency_ns.size(), 4u);
  // Query k starts at about 15 k ms though scheduled at 5 k ms: it waited about 10 k ms.
  EXPECT_GE(r.measured.latency_ns[3], 45'000'000);
  EXPECT_GT(r.measured.latency_ns[3], r.measured.latency_ns[0] + 25'000'000);
}

TEST(Burst, AFailingQueryStopsTheRunAndIsNamed) {
  auto sessions = testing::MakeNullSessions("null:sleep?us=100&fail_at=3", 2);
  const BurstPlan plan = Plan(2, 2, 10);
  const ScenarioResult r = RunBursts(sessions->raw, sessions->pool, plan);
  EXPECT_FALSE(r.error.ok());
  EXPECT_EQ(r.failed_stage, "run");
  EXPECT_EQ(r.stop_reason, "error");
}

}  // namespace
}  // namespace edgebench
