// Long runs past the raw-sample cap (issue 9, "Raw samples must scale"): a soak keeps running
// to its duration on per-window histograms, and its record derives summary and windows from
// them within the stated error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../test_util.h"
#include "core/clock.h"
#include "load/closed_loop.h"
#include "load/scenario.h"
#include "null_sessions.h"
#include "record/record.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// Query q's latency under the fake clock: from 1 us to about 1.2 ms over several octaves, with
// a slow query every 97th, so that the percentiles differ from window to window.
int64_t FakeLatency(int64_t q) { return 1'000 + (q * 7'919) % 200'000 + (q % 97 == 0 ? 1'000'000 : 0); }
constexpr int64_t kFakeGapNs = 500;  // from a query's end to the next one's start

// The fake clock of one stream without warmup: the loop reads it at the warmup's start and the
// measured phase's start (main thread), then at each query's start and end (the stream).
struct FakeClock {
  int64_t readings = 0;
  int64_t now = 1'000'000'000;
  int64_t operator()() {
    const int64_t reading = readings++;
    if (reading >= 2) now += (reading - 2) % 2 == 0 ? kFakeGapNs : FakeLatency((reading - 2) / 2);
    return now;
  }
};

// What that clock gives, query by query, for a phase of `duration_ns` (the loop stops at the
// first query completing at or after it): issue times after the phase start and latencies.
void ExpectedSeries(int64_t duration_ns, std::vector<int64_t>& issue, std::vector<int64_t>& latency,
                    int64_t& wall_ns) {
  int64_t t = 0;
  for (int64_t q = 0;; ++q) {
    issue.push_back(t + kFakeGapNs);
    latency.push_back(FakeLatency(q));
    t += kFakeGapNs + FakeLatency(q);
    if (t >= duration_ns) break;
  }
  wall_ns = t;
}

ClosedLoopPlan SoakPlan(int64_t duration_ns, int64_t cap, int64_t window_ns) {
  ClosedLoopPlan plan;
  plan.streams = 1;
  plan.min_queries = 1;
  plan.min_duration_ns = duration_ns;
  plan.max_duration_ns = duration_ns;
  plan.max_queries = cap;
  plan.histograms_beyond_cap = true;
  plan.window_ns = window_ns;
  return plan;
}

void ExpectWithin(std::optional<int64_t> approximate, std::optional<int64_t> exact, double relative_error,
                  const std::string& what) {
  ASSERT_EQ(approximate.has_value(), exact.has_value()) << what;
  if (!exact) return;
  EXPECT_LE(std::abs(static_cast<double>(*approximate - *exact)), static_cast<double>(*exact) * relative_error)
      << what << ": " << *approximate << " vs exact " << *exact;
}

TEST(SoakHistograms, PastTheCapPercentilesMatchTheExactOnesWithinTheStatedError) {
  constexpr int64_t kDurationNs = 2'000'000'000;  // fake time: about 20,000 queries
  constexpr int64_t kWindowNs = 250'000'000;
  FakeClock clock;
  auto s = testing::MakeNullSessions("null:spin?us=0", 1);
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, SoakPlan(kDurationNs, 1'000, kWindowNs), nullptr,
                                         [&clock] { return clock(); });
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  EXPECT_EQ(r.stop_reason, "max_duration");
  std::vector<int64_t> issue, latency;
  int64_t wall_ns = 0;
  ExpectedSeries(kDurationNs, issue, latency, wall_ns);
  EXPECT_EQ(r.measured_wall_ns, wall_ns);
  EXPECT_TRUE(r.measured.latency_ns.empty()) << "no raw sample past the cap, not even the first 1,000";
  EXPECT_TRUE(r.measured.issue_ns.empty());
  ASSERT_TRUE(r.measured_histograms.has_value());
  const HistogramSeries& series = *r.measured_histograms;
  ASSERT_GT(latency.size(), 10'000u);
  EXPECT_EQ(series.count(), static_cast<int64_t>(latency.size()));
  const double error = series.relative_error();
  EXPECT_NEAR(error, 1.0 / 512, 1e-12);

  // The summary: count, min, max, mean and stddev exact; percentiles within the error.
  const LatencySummary exact = Summarize(latency, wall_ns);
  const LatencySummary from_histograms = SummarizeHistogram(series.Total(), series.TotalMoments(), wall_ns);
  EXPECT_EQ(from_histograms.count, exact.count);
  EXPECT_EQ(from_histograms.min_ns, exact.min_ns);
  EXPECT_EQ(from_histograms.max_ns, exact.max_ns);
  EXPECT_NEAR(from_histograms.mean_ns, exact.mean_ns, exact.mean_ns * 1e-12);
  EXPECT_NEAR(from_histograms.stddev_ns, exact.stddev_ns, exact.stddev_ns * 1e-9);
  EXPECT_DOUBLE_EQ(from_histograms.throughput_qps, exact.throughput_qps);
  for (double p : kReportedPercentiles) {
    ExpectWithin(from_histograms.Percentile(p), exact.Percentile(p), error, PercentileName(p));
  }

  // The windows: the same windows and counts as from the raw samples, percentiles within the error.
  const auto exact_windows = SplitIntoWindows(issue, latency, kWindowNs, wall_ns);
  const auto windows = WindowsFromHistograms(series, wall_ns);
  ASSERT_EQ(windows.size(), exact_windows.size());
  ASSERT_EQ(windows.size(), 9u);  // the phase ends with the first query past 2 s: a partial ninth
  EXPECT_TRUE(windows.back().partial);
  for (size_t w = 0; w < windows.size(); ++w) {
    EXPECT_EQ(windows[w].start_ns, exact_windows[w].start_ns);
    EXPECT_EQ(windows[w].end_ns, exact_windows[w].end_ns);
    EXPECT_EQ(windows[w].count, exact_windows[w].count) << "window " << w;
    EXPECT_EQ(windows[w].partial, exact_windows[w].partial);
    EXPECT_DOUBLE_EQ(windows[w].throughput_qps, exact_windows[w].throughput_qps);
    ExpectWithin(windows[w].p50_ns, exact_windows[w].p50_ns, error, "p50 of window " + std::to_string(w));
    ExpectWithin(windows[w].p99_ns, exact_windows[w].p99_ns, error, "p99 of window " + std::to_string(w));
  }
}

TEST(SoakHistograms, UnderTheCapRawSamplesAreKeptExactlyAsBefore) {
  constexpr int64_t kDurationNs = 50'000'000;  // about 500 queries, under a cap of 1,000
  FakeClock clock;
  auto s = testing::MakeNullSessions("null:spin?us=0", 1);
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, SoakPlan(kDurationNs, 1'000, 10'000'000), nullptr,
                                         [&clock] { return clock(); });
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  std::vector<int64_t> issue, latency;
  int64_t wall_ns = 0;
  ExpectedSeries(kDurationNs, issue, latency, wall_ns);
  EXPECT_FALSE(r.measured_histograms.has_value());
  EXPECT_EQ(r.measured.latency_ns, latency);
  EXPECT_EQ(r.measured.issue_ns, issue);
  EXPECT_EQ(r.measured_wall_ns, wall_ns);
  // And the same as the loop without histograms gives.
  FakeClock plain_clock;
  ClosedLoopPlan plain = SoakPlan(kDurationNs, 1'000, 0);
  plain.histograms_beyond_cap = false;
  const ScenarioResult p = RunClosedLoop(s->raw, s->pool, plain, nullptr, [&plain_clock] { return plain_clock(); });
  EXPECT_EQ(p.measured.latency_ns, r.measured.latency_ns);
  EXPECT_EQ(p.stop_reason, r.stop_reason);
}

TEST(SoakHistograms, WithoutTheOptionMaxQueriesStillStopsTheRun) {
  auto s = testing::MakeNullSessions("null:spin?us=0", 2);
  ClosedLoopPlan plan = SoakPlan(60'000'000'000, 2'000, 1'000'000'000);
  plan.streams = 2;
  plan.histograms_beyond_cap = false;
  const ScenarioResult r = RunClosedLoop(s->raw, s->pool, plan);
  EXPECT_EQ(r.stop_reason, "max_queries");
  EXPECT_FALSE(r.measured_histograms.has_value());
  EXPECT_GE(r.measured.latency_ns.size(), 2'000u);
}

// A soak as run_case runs it: the scenario from its name, then the record.
Record RunSoak(const std::string& name, RunSettings settings, int streams) {
  settings.streams = streams;
  Record r = testing::MakeRecord({});
  r.scenario = name;
  r.requested_settings = settings;
  r.effective_settings = ValidateForScenario(name, settings).take().values;
  auto scenario = MakeScenario(name, settings, LlmSettings{}).take();
  auto s = testing::MakeNullSessions("null:spin?us=0", streams);
  ScenarioContext context;
  context.sessions = s->raw;
  context.input_pool = &s->pool;
  context.now = NowNs;
  ScenarioResult result = scenario->Run(context);
  EXPECT_TRUE(result.error.ok()) << result.error.message();
  r.measured_ns = std::move(result.measured.latency_ns);
  r.measured_issue_ns = std::move(result.measured.issue_ns);
  r.measured_stream = std::move(result.measured.stream);
  r.measured_histograms = std::move(result.measured_histograms);
  r.measured_wall_ns = result.measured_wall_ns;
  r.stop_reason = result.stop_reason;
  FinishRecord(r);
  return r;
}

TEST(SoakHistograms, ASoakPastTheCapRunsItsDurationAndItsRecordKeepsTheHistograms) {
  RunSettings settings;
  settings.max_queries = 2'000;
  settings.warmup_queries = 0;
  settings.window_ms = 250;
  const Record r = RunSoak("soak:1s", settings, 2);
  EXPECT_NE(r.stop_reason, "max_queries");
  EXPECT_GE(r.measured_wall_ns, 1'000'000'000);
  EXPECT_TRUE(r.measured_ns.empty());
  EXPECT_TRUE(r.measured_stream.empty());
  ASSERT_TRUE(r.measured_histograms.has_value());
  EXPECT_GT(r.summary.count, 2'000 * 10) << "a null query takes well under 50 us";
  EXPECT_EQ(r.summary.count, r.measured_histograms->count());
  ASSERT_TRUE(r.load.has_value());
  EXPECT_GT(r.load->percentile_relative_error, 0);
  ASSERT_GE(r.load->windows.size(), 4u);
  int64_t in_windows = 0;
  for (const LatencyWindow& w : r.load->windows) in_windows += w.count;
  EXPECT_EQ(in_windows, r.summary.count);
  EXPECT_TRUE(r.load->windows[0].p99_ns.has_value());
  ASSERT_EQ(r.load->per_stream.size(), 2u);
  EXPECT_EQ(r.load->per_stream[0].count + r.load->per_stream[1].count, r.summary.count);
  EXPECT_TRUE(r.load->drift.has_value());
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("percentiles from histograms, within 0.195%"), std::string::npos) << r.notes.back();
  EXPECT_NE(r.notes.back().find("exceeded the raw-sample cap"), std::string::npos);

  // JSON: counts and histograms, no raw latency; the round trip keeps all of it.
  const nlohmann::json json = RecordToJson(r);
  const auto& measured = json["samples"]["measured"];
  EXPECT_FALSE(measured.contains("latency_ns"));
  EXPECT_FALSE(measured.contains("issue_ns"));
  EXPECT_EQ(measured["count"], r.summary.count);
  EXPECT_EQ(measured["histogram_windows"].size(), r.measured_histograms->windows.size());
  EXPECT_EQ(measured["streams"].size(), 2u);
  EXPECT_EQ(json["summary"]["percentile_relative_error"], r.load->percentile_relative_error);
  EXPECT_EQ(json["load"]["percentiles_from"], "histograms");
  const std::string text = json.dump();
  std::printf("1 s soak past a 2,000-query cap: %lld queries, record %zu bytes\n",
              static_cast<long long>(r.summary.count), text.size());
  auto back = RecordFromJson(nlohmann::json::parse(text));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(RecordToJson(back.value()), json);
  EXPECT_EQ(back.value().notes, r.notes) << "the derived notes are replaced, not added again";
  EXPECT_EQ(back.value().summary.percentiles, r.summary.percentiles);
  EXPECT_EQ(back.value().summary.stddev_ns, r.summary.stddev_ns);
}

TEST(SoakHistograms, ASoakUnderTheCapKeepsItsRawSamples) {
  RunSettings settings;
  settings.warmup_queries = 0;
  settings.window_ms = 10;
  const Record r = RunSoak("soak:50ms", settings, 1);
  if (r.summary.count >= settings.max_queries) GTEST_SKIP() << "this machine ran past 1,000,000 queries in 50 ms";
  EXPECT_FALSE(r.measured_histograms.has_value());
  EXPECT_EQ(static_cast<int64_t>(r.measured_ns.size()), r.summary.count);
  EXPECT_EQ(r.load->percentile_relative_error, 0);
  EXPECT_FALSE(RecordToJson(r)["samples"]["measured"].contains("histogram_windows"));
  EXPECT_TRUE(RecordToJson(r)["samples"]["measured"].contains("latency_ns"));
}

TEST(SoakHistograms, HistogramsThatDisagreeWithTheCountAreAnError) {
  RunSettings settings;
  settings.max_queries = 500;
  settings.warmup_queries = 0;
  settings.window_ms = 100;
  const Record r = RunSoak("soak:200ms", settings, 1);
  ASSERT_TRUE(r.measured_histograms.has_value());
  nlohmann::json json = RecordToJson(r);
  json["samples"]["measured"]["count"] = r.summary.count + 1;
  auto wrong_count = RecordFromJson(json);
  ASSERT_FALSE(wrong_count.ok());
  EXPECT_NE(wrong_count.error().find("count says"), std::string::npos) << wrong_count.error();
  json = RecordToJson(r);
  json["samples"]["measured"]["streams"][0]["sum_ns"] = "twelve";
  auto bad_sum = RecordFromJson(json);
  ASSERT_FALSE(bad_sum.ok());
  EXPECT_NE(bad_sum.error().find("sum_ns"), std::string::npos) << bad_sum.error();
}

TEST(LatencyMoments, StddevIsExactForLargeValuesWithSmallSpread) {
  // 10^6 values around 10^12 ns with a spread of a few ns: a double sum of squares would lose it.
  LatencyMoments m;
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 1'000'000; ++i) values.push_back(1'000'000'000'000 + i % 7);
  for (int64_t v : values) m.Add(v);
  // Exact: the values are 10^12 + (0..6) in equal shares (with 1 extra of 0..k).
  double mean = 0;
  for (int64_t v : values) mean += static_cast<double>(v - 1'000'000'000'000);
  mean /= static_cast<double>(values.size());
  double squares = 0;
  for (int64_t v : values) {
    const double d = static_cast<double>(v - 1'000'000'000'000) - mean;
    squares += d * d;
  }
  EXPECT_NEAR(m.stddev(), std::sqrt(squares / static_cast<double>(values.size() - 1)), 1e-9);
  auto back = LatencyMoments::FromJson(nlohmann::json::parse(m.ToJson().dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().count, m.count);
  EXPECT_TRUE(back.value().sum == m.sum && back.value().sum_squares == m.sum_squares);
}

}  // namespace
}  // namespace edgebench
