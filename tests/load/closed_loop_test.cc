#include "load/closed_loop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "load/arrivals.h"
#include "load/server.h"
#include "null_sessions.h"

namespace edgebench {
namespace {

std::unique_ptr<testing::NullSessions> Make(const std::string& target, int count) {
  return testing::MakeNullSessions(target, count);
}

ClosedLoopPlan Plan(int streams, int64_t warmup, int64_t min_queries, int64_t min_ms, int64_t max_ms) {
  ClosedLoopPlan p;
  p.streams = streams;
  p.warmup_queries = warmup;
  p.min_queries = min_queries;
  p.min_duration_ns = min_ms * 1'000'000;
  p.max_duration_ns = max_ms * 1'000'000;
  p.max_queries = 1'000'000;
  return p;
}

TEST(ClosedLoop, EveryStreamRunsItsWarmupAndShareOfTheMeasuredQueries) {
  auto s = Make("null:sleep?us=200", 4);
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, Plan(4, 3, 200, 0, 60000));
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
  EXPECT_EQ(r.warmup.latency_ns.size(), 12u);  // 3 per stream
  // The stop check runs at most once a millisecond per stream: at least min_queries, and not
  // far beyond (four streams of 200 us queries add a few per millisecond each).
  EXPECT_GE(r.measured.latency_ns.size(), 200u);
  EXPECT_LT(r.measured.latency_ns.size(), 200u + 4 * 40);
  ASSERT_EQ(r.measured.stream.size(), r.measured.latency_ns.size());
  ASSERT_EQ(r.measured.issue_ns.size(), r.measured.latency_ns.size());
  std::vector<int> per_stream(4, 0);
  for (int32_t id : r.measured.stream) ++per_stream.at(static_cast<size_t>(id));
  // Every stream issued queries. Not an even share: on a loaded machine the scheduler may
  // starve one thread for a while (seen: 14 of 200).
  for (int n : per_stream) EXPECT_GT(n, 0) << "every stream issued queries";
  EXPECT_TRUE(std::is_sorted(r.measured.issue_ns.begin(), r.measured.issue_ns.end()));
  for (int64_t ns : r.measured.latency_ns) EXPECT_GE(ns, 200'000);
}

TEST(ClosedLoop, SleepingStreamsOverlapSoThroughputScalesWithStreams) {
  // Sleeping queries use no CPU: four streams of 2 ms queries complete about four times the
  // queries one stream does in the same time, even on a loaded 2-core machine.
  auto one = Make("null:sleep?us=2000", 1);
  auto four = Make("null:sleep?us=2000", 4);
  const ScenarioResult r1 = RunClosedLoop(one->raw, one->pool, Plan(1, 0, 1, 200, 200));
  const ScenarioResult r4 = RunClosedLoop(four->raw, four->pool, Plan(4, 0, 1, 200, 200));
  EXPECT_EQ(r1.stop_reason, "max_duration");
  const double ratio = static_cast<double>(r4.measured.latency_ns.size()) / static_cast<double>(r1.measured.latency_ns.size());
  EXPECT_GT(ratio, 2.5) << r1.measured.latency_ns.size() << " vs " << r4.measured.latency_ns.size();
}

TEST(ClosedLoop, SharedSessionServesAllStreams) {
  auto s = Make("null:sleep?us=100", 1);
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, Plan(3, 2, 60, 0, 60000));
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  // Every stream runs its warmup on the one session before the measured phase starts: 2 each.
  // (Which streams issue the measured queries is the scheduler's choice: on a loaded machine one
  // stream may not be scheduled before the other two reach 60.)
  EXPECT_EQ(r.warmup.latency_ns.size(), 6u);
  EXPECT_GE(r.measured.latency_ns.size(), 60u);
  const std::set<int32_t> streams(r.measured.stream.begin(), r.measured.stream.end());
  EXPECT_FALSE(streams.empty());
  for (int32_t id : streams) EXPECT_TRUE(id >= 0 && id < 3) << id;
}

TEST(ClosedLoop, AFailingQueryStopsEveryStreamAndNamesItsStream) {
  auto s = Make("null:sleep?us=100&fail_at=30", 2);
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, Plan(2, 5, 1'000'000, 0, 60000));
  ASSERT_FALSE(r.error.ok());
  EXPECT_EQ(r.stop_reason, "error");
  EXPECT_EQ(r.failed_stage, "run");
  EXPECT_EQ(r.failed_query, 29);  // the 30th run of that stream's own session
  EXPECT_TRUE(r.failed_stream == 0 || r.failed_stream == 1);
  EXPECT_NE(r.error.message().find("failed as requested"), std::string::npos);
}

TEST(ClosedLoop, MaxQueriesBoundsAllStreamsTogether) {
  auto s = Make("null:spin?us=0", 2);
  ClosedLoopPlan plan = Plan(2, 0, 1, 60000, 60000);
  plan.max_queries = 5000;
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, plan);
  EXPECT_EQ(r.stop_reason, "max_queries");
  EXPECT_GE(r.measured.latency_ns.size(), 5000u);
  // Each stream stops at its own 5000 at the latest.
  EXPECT_LE(r.measured.latency_ns.size(), 10000u);
}

TEST(ClosedLoop, InjectedClockTimesEveryQuery) {
  // A thread-safe fake clock that advances 1 ms per reading: every query spans exactly one
  // reading pair, so each latency is 1 ms whatever the machine does, and (a millisecond apart)
  // every query checks the stop rule, which then stops at exactly min_queries.
  std::atomic<int64_t> ticks{0};
  auto clock = [&ticks] { return ticks.fetch_add(1'000'000); };
  auto s = Make("null:spin?us=0", 1);
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, Plan(1, 2, 10, 0, 60000), nullptr, clock);
  ASSERT_EQ(r.measured.latency_ns.size(), 10u);
  for (int64_t ns : r.measured.latency_ns) EXPECT_EQ(ns, 1'000'000);
  for (int64_t ns : r.warmup.latency_ns) EXPECT_EQ(ns, 1'000'000);
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
}

TEST(Server, ScheduleCoversMinQueriesAndDurationFromTheSeed) {
  ServerPlan plan;
  plan.target_qps = 1000;
  plan.seed = 7;
  plan.min_queries = 50;
  plan.min_duration_ns = 200'000'000;
  plan.max_queries = 1'000'000;
  const auto a = ServerSchedule(plan);
  const auto b = ServerSchedule(plan);
  EXPECT_EQ(a, b);
  ASSERT_GE(a.size(), 50u);
  EXPECT_GE(a.back(), plan.min_duration_ns);
  EXPECT_LT(a[a.size() - 2], plan.min_duration_ns);  // it stopped at the first arrival past it
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  // The same arrivals as the generator gives.
  auto generator = PoissonArrivals::Make(1000, 7).take();
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(a[i], generator.Next());
  plan.seed = 8;
  EXPECT_NE(ServerSchedule(plan), a);
  plan.max_queries = 20;
  EXPECT_EQ(ServerSchedule(plan).size(), 20u);
}

TEST(Server, LatencyCountsFromTheScheduledArrival) {
  // One session, 2 ms queries offered at 1,000 QPS: it cannot keep up, so queries queue and
  // their latency (from arrival) grows beyond their service time.
  auto s = Make("null:sleep?us=2000", 1);
  ServerPlan plan;
  plan.workers = 1;
  plan.target_qps = 1000;
  plan.seed = 1;
  plan.min_queries = 40;
  plan.max_duration_ns = 60'000'000'000;
  plan.max_queries = 40;
  const ScenarioResult r = RunServer(s->raw, s->pool, plan);
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  ASSERT_EQ(r.measured.latency_ns.size(), 40u);
  ASSERT_EQ(r.measured.service_ns.size(), 40u);
  const auto schedule = ServerSchedule(plan);
  EXPECT_EQ(r.measured.issue_ns, schedule);
  for (size_t i = 0; i < 40; ++i) {
    EXPECT_GE(r.measured.service_ns[i], 2'000'000);
    EXPECT_GE(r.measured.latency_ns[i], r.measured.service_ns[i]);
  }
  // The last query waited for the 39 before it: about 40 x 2 ms in all, less its arrival.
  EXPECT_GT(r.measured.latency_ns.back(), 40 * 2'000'000 - schedule.back());
  EXPECT_EQ(r.not_issued, 0);
  EXPECT_EQ(r.stop_reason, "max_queries");
}

TEST(Server, ArrivalsPastMaxDurationAreNotIssued) {
  auto s = Make("null:sleep?us=5000", 2);
  ServerPlan plan;
  plan.workers = 2;
  plan.target_qps = 2000;  // far beyond what two 5 ms sessions serve
  plan.min_queries = 2000;
  plan.max_duration_ns = 100'000'000;
  plan.max_queries = 1'000'000;
  const ScenarioResult r = RunServer(s->raw, s->pool, plan);
  EXPECT_EQ(r.stop_reason, "max_duration");
  EXPECT_GT(r.not_issued, 1000);
  EXPECT_EQ(static_cast<int64_t>(r.measured.latency_ns.size()) + r.not_issued, 2000);
}

}  // namespace
}  // namespace edgebench
