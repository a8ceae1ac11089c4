// The load scenarios' verdict rules on hand-built records (docs/scenarios.md): exact values,
// no timing.
#include <gtest/gtest.h>

#include "../test_util.h"
#include "record/record.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

constexpr int64_t kOneMs = 1'000'000;

// 200 server queries scheduled every 10 ms (offered 200 / 1.99 s = 100.5 QPS), 1 ms of service
// each, none waiting except the last, which starts `last_delay_ns` late.
Record ServerRecord(int64_t last_delay_ns) {
  Record r = testing::MakeRecord({});
  r.scenario = "server:100";
  for (int64_t i = 0; i < 200; ++i) {
    const int64_t delay = i == 199 ? last_delay_ns : 0;
    r.measured_issue_ns.push_back(i * 10 * kOneMs);
    r.measured_service_ns.push_back(1 * kOneMs);
    r.measured_ns.push_back(1 * kOneMs + delay);
  }
  r.effective_settings.min_queries = 100;
  r.measured_wall_ns = 1990 * kOneMs + last_delay_ns + 1 * kOneMs;
  FinishRecord(r);
  return r;
}

TEST(LoadVerdict, AServerMoreThanTwoPercentUnderTheOfferedRateIsInvalid) {
  // Last start at 1.99 s + 10 ms: achieved 200 / 2.0 s = 100 QPS, 0.5% under 100.5: VALID.
  const Record keeping_up = ServerRecord(10 * kOneMs);
  ASSERT_TRUE(keeping_up.load && keeping_up.load->server);
  EXPECT_NEAR(keeping_up.load->server->offered_qps, 200 / 1.99, 1e-9);
  EXPECT_NEAR(keeping_up.load->server->achieved_qps, 100.0, 1e-9);
  EXPECT_TRUE(keeping_up.valid) << ::testing::PrintToString(keeping_up.invalid_reasons);
  // Last start at 1.99 s + 60 ms: achieved 97.56 QPS, 2.9% under: INVALID, with the numbers.
  const Record behind = ServerRecord(60 * kOneMs);
  EXPECT_FALSE(behind.valid);
  ASSERT_EQ(behind.invalid_reasons.size(), 1u);
  EXPECT_EQ(behind.invalid_reasons[0],
            "achieved 97.6 QPS, more than 2% under the 100.5 QPS offered (target server:100): the "
            "sessions did not keep up");
}

TEST(LoadVerdict, AServerIsNotJudgedByItsCoefficientOfVariation) {
  Record r = ServerRecord(0);
  for (size_t i = 0; i < r.measured_ns.size(); i += 2) r.measured_ns[i] = 30 * kOneMs;  // queueing
  r.measured_service_ns = r.measured_ns;
  FinishRecord(r);
  EXPECT_GT(r.summary.cv, r.effective_settings.max_cv);
  EXPECT_TRUE(r.valid) << ::testing::PrintToString(r.invalid_reasons);
}

TEST(LoadVerdict, TheP99BoundAndNeverIssuedQueries) {
  Record r = ServerRecord(0);
  r.effective_settings.p99_bound_ms = 0.5;  // every query takes 1 ms
  r.not_issued = 3;
  FinishRecord(r);
  EXPECT_FALSE(r.valid);
  ASSERT_EQ(r.invalid_reasons.size(), 2u) << ::testing::PrintToString(r.invalid_reasons);
  EXPECT_EQ(r.invalid_reasons[0],
            "3 scheduled queries were never issued: the run reached max_duration (60000 ms) first");
  EXPECT_EQ(r.invalid_reasons[1], "p99 1.000 ms is over the bound 0.500 ms (--p99-bound-ms)");
  r.effective_settings.p99_bound_ms = 1.0;  // at the bound is within it
  r.not_issued = 0;
  FinishRecord(r);
  EXPECT_TRUE(r.valid) << ::testing::PrintToString(r.invalid_reasons);
}

// Closed-loop queries back to back: 1 ms each, throughput 1000 q/s, for `windows` windows of
// 1 s, the last three at the given latencies (ms).
Record ClosedLoopRecord(const std::string& scenario, std::vector<int64_t> last_three_ms) {
  Record r = testing::MakeRecord({});
  r.scenario = scenario;
  r.effective_settings.window_ms = 1000;
  r.effective_settings.max_cv = 100;
  int64_t t = 0;
  for (int w = 0; w < 5; ++w) {
    const int64_t latency = (w < 2 ? 1 : last_three_ms[static_cast<size_t>(w - 2)]) * kOneMs;
    while (t + latency <= (w + 1) * 1000 * kOneMs) {
      r.measured_issue_ns.push_back(t);
      r.measured_ns.push_back(latency);
      t += latency;
    }
  }
  r.measured_wall_ns = 5000 * kOneMs;
  r.effective_settings.min_queries = 1;
  FinishRecord(r);
  return r;
}

TEST(LoadVerdict, AnUnstableClosedLoopRunIsInvalidNamingTheRule) {
  const Record stable = ClosedLoopRecord("multi-stream:1", {1, 1, 1});
  EXPECT_TRUE(stable.load->stability.enough_windows);
  EXPECT_TRUE(stable.valid) << ::testing::PrintToString(stable.invalid_reasons);
  // Both closed-loop scenarios are judged by the rule.
  for (const char* scenario : {"single-stream", "multi-stream:1"}) {
    const Record unstable = ClosedLoopRecord(scenario, {1, 1, 2});
    EXPECT_FALSE(unstable.valid) << scenario;
    ASSERT_EQ(unstable.invalid_reasons.size(), 1u) << scenario << ::testing::PrintToString(unstable.invalid_reasons);
    EXPECT_EQ(unstable.invalid_reasons[0].rfind("not stable over the last windows of 1000 ms: p50 of the last 3 windows spread 100% > 10%", 0), 0u)
        << scenario << ": " << unstable.invalid_reasons[0];
  }
  // A soak reports the same drift without being judged by it.
  const Record soak = ClosedLoopRecord("soak:5s", {1, 1, 2});
  EXPECT_TRUE(soak.valid) << ::testing::PrintToString(soak.invalid_reasons);
  ASSERT_TRUE(soak.load->drift);
  EXPECT_FALSE(soak.load->stability.stable);
}

TEST(LoadVerdict, EarlyStoppingWithConfidence) {
  Record r = testing::MakeRecord(std::vector<int64_t>(63, 1000));
  r.effective_settings.confidence = 0.99;
  FinishRecord(r);
  ASSERT_EQ(r.load->early_stopping.size(), 2u);
  EXPECT_FALSE(r.load->early_stopping[0].supported);  // p90 needs 64
  EXPECT_EQ(r.load->early_stopping[0].queries_needed, 64);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.invalid_reasons.size(), 2u) << ::testing::PrintToString(r.invalid_reasons);  // p90 and p99
  EXPECT_EQ(r.invalid_reasons[0].rfind("early stopping: p90 not supported at confidence 99.0%: ", 0), 0u)
      << r.invalid_reasons[0];
  r.measured_ns.assign(662, 1000);
  FinishRecord(r);
  EXPECT_TRUE(r.load->early_stopping[0].supported);
  EXPECT_TRUE(r.load->early_stopping[1].supported);
  EXPECT_TRUE(r.valid) << ::testing::PrintToString(r.invalid_reasons);
  r.effective_settings.confidence = 0;  // off: nothing judged, nothing reported
  r.measured_ns.assign(10, 1000);
  FinishRecord(r);
  EXPECT_TRUE(r.load->early_stopping.empty());
}

TEST(LoadVerdict, InflationAndPeakSurviveTheStore) {
  Record r = ServerRecord(0);
  r.load_inflation = Inflation{"base-1", 500'000, 900'000, 2.0, 1.5};
  r.load_peak = PeakAnswer{137.5, 20, {{100, true}, {200, false}, {150, false}, {125, true}, {137.5, true}}, "why"};
  FinishRecord(r);
  const auto json = RecordToJson(r);
  auto back = RecordFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(RecordToJson(back.value()), json);
  ASSERT_TRUE(back.value().load_inflation);
  EXPECT_EQ(back.value().load_inflation->baseline_record_id, "base-1");
  EXPECT_EQ(back.value().load_inflation->p99_ratio, 1.5);
  ASSERT_TRUE(back.value().load_peak);
  EXPECT_EQ(back.value().load_peak->peak_qps, 137.5);
  EXPECT_EQ(back.value().load_peak->steps.size(), 5u);
  EXPECT_EQ(back.value().measured_service_ns, r.measured_service_ns);
}

}  // namespace
}  // namespace edgebench
