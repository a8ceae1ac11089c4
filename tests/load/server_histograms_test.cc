// A server run past its raw-sample cap (issue 9, "Raw samples must scale"): its record keeps
// histograms and exact totals instead of raw samples, and every server metric and verdict it
// derives agrees with the raw samples': the scalars exactly, the percentiles within the
// histograms' stated error.
#include "stats/server_histograms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "../test_util.h"
#include "load/server.h"
#include "null_sessions.h"
#include "record/record.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

constexpr int64_t kMs = 1'000'000;

// A simulated server: Poisson arrivals at `qps` served first come, first served by `workers`
// sessions with exponential service times of mean `service_mean_ns` (seeded, so exact).
struct SimulatedRun {
  std::vector<int64_t> issue, latency, service;
  std::vector<int32_t> stream;
  int64_t wall_ns = 0;
};

SimulatedRun Simulate(int64_t queries, double qps, double service_mean_ns, int workers, uint64_t seed) {
  SimulatedRun run;
  std::mt19937_64 random(seed);
  std::exponential_distribution<double> gap(qps / 1e9);
  std::exponential_distribution<double> service(1.0 / service_mean_ns);
  std::vector<int64_t> free_at(static_cast<size_t>(workers), 0);
  double arrival = 0;
  for (int64_t q = 0; q < queries; ++q) {
    arrival += gap(random);
    const auto issue = static_cast<int64_t>(arrival);
    const auto w = static_cast<size_t>(std::min_element(free_at.begin(), free_at.end()) - free_at.begin());
    const int64_t start = std::max(issue, free_at[w]);
    const int64_t duration = 1'000 + static_cast<int64_t>(service(random));
    free_at[w] = start + duration;
    run.issue.push_back(issue);
    run.latency.push_back(free_at[w] - issue);
    run.service.push_back(duration);
    run.stream.push_back(static_cast<int32_t>(w));
    run.wall_ns = std::max(run.wall_ns, free_at[w]);
  }
  return run;
}

void ExpectWithin(const LatencySummary& from_histograms, const LatencySummary& exact, double error,
                  const std::string& what) {
  EXPECT_EQ(from_histograms.count, exact.count) << what;
  EXPECT_EQ(from_histograms.min_ns, exact.min_ns) << what;
  EXPECT_EQ(from_histograms.max_ns, exact.max_ns) << what;
  EXPECT_NEAR(from_histograms.mean_ns, exact.mean_ns, 1e-9 * exact.mean_ns + 1e-6) << what;
  EXPECT_NEAR(from_histograms.stddev_ns, exact.stddev_ns, 1e-6 * exact.stddev_ns + 1e-6) << what;
  ASSERT_EQ(from_histograms.percentiles.size(), exact.percentiles.size()) << what;
  for (size_t i = 0; i < exact.percentiles.size(); ++i) {
    const auto& [p, value] = exact.percentiles[i];
    ASSERT_EQ(from_histograms.percentiles[i].second.has_value(), value.has_value()) << what << " p" << p;
    if (!value) continue;
    EXPECT_LE(std::abs(static_cast<double>(*from_histograms.percentiles[i].second - *value)),
              error * static_cast<double>(*value) + 0.5)
        << what << " p" << p;
  }
}

TEST(ServerHistograms, TotalsGiveTheRawSamplesScalarsExactlyAndPercentilesWithinTheError) {
  const SimulatedRun run = Simulate(50'000, 2'000, 800'000, 2, 7);  // 80% busy: queueing
  const ServerSummary exact = SummarizeServer(run.issue, run.latency, run.service, run.wall_ns, 3);
  const ServerHistograms reduced =
      ReduceServerSamples(run.issue, run.latency, run.service, run.stream, 2, 1'000 * kMs, 1'000);
  EXPECT_EQ(reduced.server.count, 50'000);
  EXPECT_EQ(reduced.server.raw_sample_cap, 1'000);
  EXPECT_EQ(reduced.latency.count(), 50'000);
  const ServerSummary derived = SummarizeServerTotals(reduced.server, run.wall_ns, 3);
  EXPECT_GT(exact.late_queries, 1'000);  // the simulation does queue
  EXPECT_EQ(derived.offered_qps, exact.offered_qps);
  EXPECT_EQ(derived.achieved_qps, exact.achieved_qps);
  EXPECT_EQ(derived.late_queries, exact.late_queries);
  EXPECT_EQ(derived.backlog_at_end, exact.backlog_at_end);
  EXPECT_EQ(derived.not_issued, 3);
  const double error = reduced.server.service.relative_error();
  EXPECT_NEAR(error, 1.0 / 512, 1e-12);
  ExpectWithin(derived.service, exact.service, error, "service");
  ExpectWithin(derived.start_delay, exact.start_delay, error, "start delay");
  // Per stream: every query in its worker's histogram.
  EXPECT_EQ(reduced.latency.stream_moments[0].count + reduced.latency.stream_moments[1].count, 50'000);
  EXPECT_EQ(reduced.latency.streams[0].count(), reduced.latency.stream_moments[0].count);
}

// One record from raw samples, one from what a run past the cap stores of the same samples.
Record ServerRecord(const SimulatedRun& run, const std::string& scenario, double p99_bound_ms, bool histograms) {
  Record r = testing::MakeRecord({});
  r.scenario = scenario;
  r.effective_settings.min_queries = 100;
  r.effective_settings.window_ms = 1'000;
  r.effective_settings.p99_bound_ms = p99_bound_ms;
  r.measured_wall_ns = run.wall_ns;
  if (histograms) {
    ServerHistograms reduced = ReduceServerSamples(run.issue, run.latency, run.service, run.stream, 1,
                                                   r.effective_settings.window_ms * kMs, 1'000);
    r.measured_histograms = std::move(reduced.latency);
    r.measured_server = std::move(reduced.server);
  } else {
    r.measured_ns = run.latency;
    r.measured_issue_ns = run.issue;
    r.measured_service_ns = run.service;
    r.measured_stream = run.stream;
  }
  FinishRecord(r);
  return r;
}

void ExpectSameServerRecord(const Record& reduced, const Record& raw) {
  ASSERT_TRUE(reduced.load && reduced.load->server && raw.load && raw.load->server);
  const ServerSummary& a = *reduced.load->server;
  const ServerSummary& b = *raw.load->server;
  EXPECT_EQ(a.offered_qps, b.offered_qps);
  EXPECT_EQ(a.achieved_qps, b.achieved_qps);
  EXPECT_EQ(a.late_queries, b.late_queries);
  EXPECT_EQ(a.backlog_at_end, b.backlog_at_end);
  EXPECT_EQ(a.not_issued, b.not_issued);
  const double error = reduced.load->percentile_relative_error;
  EXPECT_NEAR(error, 1.0 / 512, 1e-12);
  ExpectWithin(reduced.summary, raw.summary, error, "latency");
  ExpectWithin(a.service, b.service, error, "service");
  ExpectWithin(a.start_delay, b.start_delay, error, "start delay");
  ASSERT_EQ(reduced.load->windows.size(), raw.load->windows.size());
  for (size_t i = 0; i < raw.load->windows.size(); ++i) {
    EXPECT_EQ(reduced.load->windows[i].count, raw.load->windows[i].count) << "window " << i;
    EXPECT_EQ(reduced.load->windows[i].throughput_qps, raw.load->windows[i].throughput_qps) << "window " << i;
  }
  EXPECT_EQ(reduced.load->stability.stable, raw.load->stability.stable);
  EXPECT_EQ(reduced.valid, raw.valid);
  ASSERT_EQ(reduced.invalid_reasons.size(), raw.invalid_reasons.size());
  for (size_t i = 0; i < raw.invalid_reasons.size(); ++i) {
    if (raw.invalid_reasons[i].rfind("p99 ", 0) == 0) continue;  // its value within the error
    EXPECT_EQ(reduced.invalid_reasons[i], raw.invalid_reasons[i]);
  }
}

TEST(ServerHistograms, AKeepingUpRunIsValidFromHistogramsAsFromRawSamples) {
  const SimulatedRun run = Simulate(20'000, 1'000, 300'000, 1, 11);  // 30% busy, 20 s
  const Record raw = ServerRecord(run, "server:1000", 50, false);
  const Record reduced = ServerRecord(run, "server:1000", 50, true);
  EXPECT_TRUE(raw.valid) << (raw.invalid_reasons.empty() ? "" : raw.invalid_reasons[0]);
  ExpectSameServerRecord(reduced, raw);
  bool noted = false;
  for (const std::string& note : reduced.notes) {
    noted |= note.rfind("percentiles from histograms, within 0.195% (20,000 queries exceeded the raw-sample cap, "
                        "the server's cap of 1,000 queries)", 0) == 0;
  }
  EXPECT_TRUE(noted);
}

TEST(ServerHistograms, AnOverloadedRunIsInvalidFromHistogramsAsFromRawSamples) {
  const SimulatedRun run = Simulate(20'000, 1'000, 1'200'000, 1, 13);  // 120% busy: falls behind
  const Record raw = ServerRecord(run, "server:1000", 50, false);
  const Record reduced = ServerRecord(run, "server:1000", 50, true);
  EXPECT_FALSE(raw.valid);
  ASSERT_GE(raw.invalid_reasons.size(), 2u);  // achieved under offered, and p99 over the bound
  EXPECT_GT(raw.load->server->backlog_at_end, 100);
  ExpectSameServerRecord(reduced, raw);
}

TEST(ServerHistograms, ARecordPastTheCapSurvivesItsJsonRoundTrip) {
  const SimulatedRun run = Simulate(5'000, 1'000, 1'200'000, 1, 17);
  const Record reduced = ServerRecord(run, "server:1000", 50, true);
  const nlohmann::json j = RecordToJson(reduced);
  const nlohmann::json& measured = j["samples"]["measured"];
  EXPECT_FALSE(measured.contains("latency_ns"));
  EXPECT_FALSE(measured.contains("service_ns"));
  ASSERT_TRUE(measured.contains("server"));
  EXPECT_EQ(j["load"]["percentiles_from"], "histograms");
  auto back = RecordFromJson(nlohmann::json::parse(j.dump()));  // through text, as a store reads it
  ASSERT_TRUE(back.ok()) << back.error();
  const Record& r = back.value();
  ASSERT_TRUE(r.measured_server && r.measured_histograms);
  EXPECT_EQ(r.measured_server->ToJson(), reduced.measured_server->ToJson());
  EXPECT_EQ(RecordToJson(r), j);  // every derived field the same
  EXPECT_TRUE(r.read_warnings.empty());
  EXPECT_EQ(r.valid, reduced.valid);
  EXPECT_EQ(r.notes, reduced.notes);

  // A bad field is named.
  nlohmann::json bad = j;
  bad["samples"]["measured"]["server"]["late_queries"] = "many";
  auto failed = RecordFromJson(bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().find("'late_queries'"), std::string::npos) << failed.error();
  bad = j;
  bad["samples"]["measured"]["server"]["service"]["count"] = 4'999;
  failed = RecordFromJson(bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().find("'service'"), std::string::npos) << failed.error();
  bad = j;
  bad["samples"]["measured"]["server"].erase("offered_qps");
  failed = RecordFromJson(bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().find("'offered_qps'"), std::string::npos) << failed.error();
}

std::unique_ptr<testing::NullSessions> MakeNullSessions(int count) {
  return testing::MakeNullSessions("null:spin?us=0", count);
}

TEST(ServerHistograms, RunServerPastItsCapKeepsNoRawSampleAndCountsEveryQuery) {
  auto sessions = MakeNullSessions(2);
  ServerPlan plan;
  plan.workers = 2;
  plan.target_qps = 20'000;
  plan.seed = 5;
  plan.min_queries = 3'000;
  plan.max_queries = 3'000;
  plan.max_duration_ns = 60'000 * kMs;
  plan.raw_sample_cap = 1'000;
  plan.window_ns = 50 * kMs;
  const ScenarioResult result = RunServer(sessions->raw, sessions->pool, plan);
  ASSERT_TRUE(result.error.ok()) << result.error.message();
  EXPECT_TRUE(result.measured.latency_ns.empty());
  EXPECT_TRUE(result.measured.service_ns.empty());
  ASSERT_TRUE(result.measured_histograms && result.measured_server);
  EXPECT_EQ(result.measured_histograms->count(), 3'000);
  EXPECT_EQ(result.measured_server->count, 3'000);
  EXPECT_EQ(result.measured_server->raw_sample_cap, 1'000);
  EXPECT_EQ(result.measured_histograms->window_ns, 50 * kMs);
  EXPECT_EQ(result.measured_histograms->stream_moments.size(), 2u);
  // The offered rate is the schedule's, known before the run: exact.
  const std::vector<int64_t> schedule = ServerSchedule(plan);
  EXPECT_EQ(result.measured_server->offered_qps, 3'000 * 1e9 / static_cast<double>(schedule.back()));

  // At or under the cap nothing changes: raw samples, no histograms.
  plan.raw_sample_cap = 3'000;
  const ScenarioResult kept = RunServer(sessions->raw, sessions->pool, plan);
  ASSERT_TRUE(kept.error.ok()) << kept.error.message();
  EXPECT_EQ(kept.measured.latency_ns.size(), 3'000u);
  EXPECT_FALSE(kept.measured_histograms || kept.measured_server);
}

}  // namespace
}  // namespace edgebench
