// CompareRecords on records made in memory: the pairing rules and each kind of metric (the CLI
// test covers stores measured by the null backend).
#include "report/compare.h"

#include <gtest/gtest.h>

#include <random>

#include "../test_util.h"

namespace edgebench {
namespace {

Record MeasuredRun(const std::string& key, uint64_t seed, double median_ns = 2e6) {
  Record r = testing::MakeRecord(testing::SeededLatencies(seed, median_ns));
  r.case_key = key;
  r.id = key + "-" + std::to_string(seed);
  r.environment.runtimes["null"] = "1";
  return r;
}

const MetricComparison* MetricNamed(const CaseComparison& c, const std::string& name) {
  for (const MetricComparison& m : c.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

TEST(Compare, PairsByCaseKeyAndListsTheRest) {
  auto result = CompareRecords({MeasuredRun("a", 1), MeasuredRun("b", 2)}, {MeasuredRun("b", 3, 2.2e6), MeasuredRun("c", 4)}, {});
  ASSERT_TRUE(result.ok()) << result.error();
  const Comparison& comparison = result.value();
  ASSERT_EQ(comparison.cases.size(), 1u);
  EXPECT_EQ(comparison.cases[0].match, "b");
  EXPECT_EQ(comparison.cases[0].verdict, CaseVerdict::kSlower);
  ASSERT_EQ(comparison.only_base.size(), 1u);
  EXPECT_EQ(comparison.only_base[0].match, "a");
  ASSERT_EQ(comparison.only_candidate.size(), 1u);
  EXPECT_EQ(comparison.SummaryLine(), "1 slower, 1 only in BASE, 1 only in NEW");
  const MetricComparison* p50 = MetricNamed(comparison.cases[0], "p50");
  ASSERT_TRUE(p50);
  EXPECT_NEAR(p50->change, 0.10, 0.01);
  EXPECT_GT(*p50->MinimumSlowdown(), 0.08);
}

// A case whose metrics disagree, its median 10% faster and its tail twice as slow (a change that
// trades the common query for the rare one), is judged slower, with a note saying both
// (docs/compare.md): a regression of the tail is not hidden by a faster median.
TEST(Compare, ACaseFasterInItsMedianAndSlowerInItsTailIsJudgedSlowerWithANote) {
  Record base = MeasuredRun("k", 1);
  Record candidate = MeasuredRun("k", 2, 1.8e6);
  std::vector<int64_t> samples = candidate.measured_ns;
  for (size_t i = 0; i < samples.size(); i += 20) samples[i] *= 3;  // every 20th query: 5.4 ms
  candidate = testing::MakeRecord(samples);
  candidate.case_key = "k";
  candidate.id = "k-2";
  candidate.environment.runtimes["null"] = "1";
  auto result = CompareRecords({base}, {candidate}, {});
  ASSERT_TRUE(result.ok()) << result.error();
  const CaseComparison& c = result.value().cases.at(0);
  ASSERT_NE(MetricNamed(c, "p50"), nullptr);
  ASSERT_NE(MetricNamed(c, "p99"), nullptr);
  EXPECT_EQ(MetricNamed(c, "p50")->verdict, MetricVerdict::kFaster);
  EXPECT_EQ(MetricNamed(c, "p99")->verdict, MetricVerdict::kSlower);
  EXPECT_EQ(c.verdict, CaseVerdict::kSlower);
  bool noted = false;
  for (const std::string& note : c.notes) noted = noted || note == "some metrics faster, others slower: judged slower";
  EXPECT_TRUE(noted);
}

TEST(Compare, NoCommonKeyIsAnErrorThatCounts) {
  auto result = CompareRecords({MeasuredRun("a", 1)}, {MeasuredRun("b", 2), MeasuredRun("c", 3)}, {});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("BASE has 1 cases, NEW has 2"), std::string::npos) << result.error();
}

TEST(Compare, TheLastMeasuredRecordOfAKeyIsCompared) {
  Record failed = MeasuredRun("a", 9);
  failed.status = CaseStatus::kFailed;
  failed.error = "boom";
  auto result = CompareRecords({MeasuredRun("a", 1, 3e6), MeasuredRun("a", 2), failed}, {MeasuredRun("a", 3)}, {});
  ASSERT_TRUE(result.ok());
  const CaseComparison& c = result.value().cases[0];
  EXPECT_EQ(c.base.record_id, "a-2");
  EXPECT_EQ(c.verdict, CaseVerdict::kNoChange);
  ASSERT_FALSE(c.notes.empty());
  EXPECT_EQ(c.notes[0], "BASE has 3 records of this case: compared the last measured one (a-2)");
}

TEST(Compare, NotComparableSaysWhy) {
  Record failed = MeasuredRun("a", 2);
  failed.status = CaseStatus::kCrashed;
  failed.error = "signal 11";
  auto result = CompareRecords({MeasuredRun("a", 1)}, {failed}, {});
  EXPECT_EQ(result.value().cases[0].verdict, CaseVerdict::kNotComparable);
  EXPECT_EQ(result.value().cases[0].reason, "NEW's record is crashed: signal 11");

  Record upgraded = MeasuredRun("a", 2);
  upgraded.environment.runtimes["null"] = "2";
  result = CompareRecords({MeasuredRun("a", 1)}, {upgraded}, {});
  EXPECT_EQ(result.value().cases[0].verdict, CaseVerdict::kNotComparable);
  EXPECT_NE(result.value().cases[0].reason.find("different runtime version: null 1 vs null 2"), std::string::npos);
  CompareOptions options;
  options.ignore_runtime_version = true;
  result = CompareRecords({MeasuredRun("a", 1)}, {upgraded}, options);
  EXPECT_EQ(result.value().cases[0].verdict, CaseVerdict::kNoChange);

  Record elsewhere = MeasuredRun("a", 2);
  elsewhere.environment.logical_cores = 64;
  result = CompareRecords({MeasuredRun("a", 1)}, {elsewhere}, {});
  EXPECT_NE(result.value().cases[0].reason.find("logical cores '0' vs '64'"), std::string::npos)
      << result.value().cases[0].reason;

  Record other_build = MeasuredRun("a", 2);
  other_build.environment.edgebench_version = "9.9";
  result = CompareRecords({MeasuredRun("a", 1)}, {other_build}, {});
  EXPECT_EQ(result.value().cases[0].verdict, CaseVerdict::kNoChange);  // noted only
  EXPECT_NE(result.value().cases[0].notes[0].find("different edgebench builds"), std::string::npos);
}

// A record on an emulated device (lavapipe, PoCL) set against one on hardware is compared, and the
// case says first that one side is the CPU running the device's code.
TEST(Compare, AnEmulatedDeviceAgainstHardwareIsSaidFirst) {
  Record emulated = MeasuredRun("a", 2);
  emulated.notes.push_back("emulated: lavapipe, Mesa's Vulkan on the CPU: the latencies are this machine's CPU "
                           "running the device's code, not a device's");
  auto result = CompareRecords({MeasuredRun("a", 1)}, {emulated}, {});
  ASSERT_TRUE(result.ok()) << result.error();
  const CaseComparison& c = result.value().cases[0];
  ASSERT_FALSE(c.notes.empty());
  EXPECT_EQ(c.notes[0].rfind("NEW ran on an emulated device (lavapipe, Mesa's Vulkan on the CPU)", 0), 0u) << c.notes[0];
  EXPECT_NE(c.notes[0].find("against hardware"), std::string::npos) << c.notes[0];
  // Both emulated the same way: nothing to say.
  result = CompareRecords({emulated}, {emulated}, {});
  for (const std::string& note : result.value().cases[0].notes) EXPECT_EQ(note.find("emulated"), std::string::npos) << note;
}

TEST(Compare, ByFieldsPairsDeliberateChangesAndRefusesAmbiguity) {
  Record threads4 = MeasuredRun("k4", 1);
  threads4.effective_target = "null:spin?threads=4";
  Record threads8 = MeasuredRun("k8", 2, 1.8e6);
  threads8.effective_target = "null:spin?threads=8";
  CompareOptions options;
  options.match_by = ParseMatchFields("model,backend,device,scenario").value();
  auto result = CompareRecords({threads4}, {threads8}, options);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result.value().cases[0].verdict, CaseVerdict::kFaster);
  EXPECT_EQ(result.value().cases[0].match, "model=m, backend=null, device=spin, scenario=single-stream");
  EXPECT_EQ(result.value().cases[0].notes[0], "targets differ: null:spin?threads=4 vs null:spin?threads=8");
  // Both thread counts in BASE: which one to compare is not compare's guess.
  result = CompareRecords({threads4, threads8}, {threads8}, options);
  EXPECT_EQ(result.value().cases[0].verdict, CaseVerdict::kNotComparable);
  EXPECT_NE(result.value().cases[0].reason.find("BASE has 2 different cases that match"), std::string::npos);
  EXPECT_FALSE(ParseMatchFields("model,colour").ok());
}

TEST(Compare, WithoutRawSamplesTheSummariesAreShownUntested) {
  Record base = MeasuredRun("a", 1);
  Record candidate = MeasuredRun("a", 2, 2.5e6);
  base.measured_ns.clear();  // as past the raw-sample cap: the summary came from histograms
  candidate.measured_ns.clear();
  auto result = CompareRecords({base}, {candidate}, {});
  const CaseComparison& c = result.value().cases[0];
  const MetricComparison* p50 = MetricNamed(c, "p50");
  ASSERT_TRUE(p50);
  EXPECT_EQ(p50->verdict, MetricVerdict::kNotTested);
  EXPECT_NEAR(p50->change, 0.25, 0.02);
  EXPECT_FALSE(p50->p_value);
  EXPECT_NE(p50->note.find("no raw samples"), std::string::npos);
  EXPECT_EQ(c.verdict, CaseVerdict::kNoChange);  // nothing judged
}

TEST(Compare, ThroughputFromWindowsAndEnergyUntested) {
  auto load_run = [](uint64_t seed, double qps, int windows) {
    Record r = MeasuredRun("m", seed);
    r.scenario = "multi-stream:2";
    r.load = LoadRecord{};
    r.summary.throughput_qps = qps;
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0, qps * 0.005);
    for (int w = 0; w < windows; ++w) {
      LatencyWindow window;
      window.throughput_qps = qps + noise(rng);
      r.load->windows.push_back(window);
    }
    r.monitor = MonitorRecord{};
    r.monitor->derived.energy.per_query_mj = qps > 900 ? 1.0 : 1.2;
    return r;
  };
  auto result = CompareRecords({load_run(1, 1000, 10)}, {load_run(2, 900, 10)}, {});
  const CaseComparison& c = result.value().cases[0];
  const MetricComparison* throughput = MetricNamed(c, "throughput");
  ASSERT_TRUE(throughput);
  EXPECT_FALSE(throughput->higher_is_slower);
  EXPECT_NEAR(throughput->change, -0.10, 1e-9);
  EXPECT_EQ(throughput->verdict, MetricVerdict::kSlower);
  EXPECT_LT(*throughput->ci_high, -0.05);
  EXPECT_GT(*throughput->MinimumSlowdown(), 0.05);
  const MetricComparison* energy = MetricNamed(c, "energy/query");
  ASSERT_TRUE(energy);
  EXPECT_NEAR(energy->change, 0.2, 1e-9);
  EXPECT_EQ(energy->verdict, MetricVerdict::kNotTested);
  EXPECT_EQ(c.verdict, CaseVerdict::kSlower);
  // Too few windows: the change only.
  result = CompareRecords({load_run(1, 1000, 4)}, {load_run(2, 900, 4)}, {});
  throughput = MetricNamed(result.value().cases[0], "throughput");
  ASSERT_TRUE(throughput);
  EXPECT_EQ(throughput->verdict, MetricVerdict::kNotTested);
  EXPECT_NE(throughput->note.find("fewer than 5 full windows (4 and 4)"), std::string::npos);
}

TEST(Compare, LlmTtftAndTpotPerRequest) {
  auto llm_run = [](uint64_t seed, double ttft_ms, double tpot_ms) {
    Record r = MeasuredRun("l", seed);
    r.scenario = "llm";
    r.measured_ns.clear();
    r.llm = LlmRecord{};
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(1.0, 0.01);
    for (int i = 0; i < 12; ++i) {
      LlmRequestTiming t;
      t.start_ns = i * 1'000'000'000LL;
      t.first_token_ns = t.start_ns + static_cast<int64_t>(ttft_ms * 1e6 * noise(rng));
      for (int k = 1; k < 8; ++k) {
        t.token_ns.push_back(t.first_token_ns + static_cast<int64_t>(k * tpot_ms * 1e6 * noise(rng)));
      }
      r.llm->measured.push_back(t);
    }
    return r;
  };
  auto result = CompareRecords({llm_run(1, 100, 20)}, {llm_run(2, 100, 24)}, {});
  const CaseComparison& c = result.value().cases[0];
  EXPECT_FALSE(MetricNamed(c, "p50"));  // no per-query latencies in an llm record
  const MetricComparison* ttft = MetricNamed(c, "ttft p50");
  const MetricComparison* tpot = MetricNamed(c, "tpot p50");
  ASSERT_TRUE(ttft && tpot);
  EXPECT_EQ(ttft->verdict, MetricVerdict::kNoChange);
  EXPECT_EQ(tpot->verdict, MetricVerdict::kSlower);
  EXPECT_NEAR(tpot->change, 0.2, 0.03);
  EXPECT_EQ(tpot->base_samples, 12);
  EXPECT_EQ(c.verdict, CaseVerdict::kSlower);
}

TEST(Compare, OutputsCarryTheTableAndTheRule) {
  auto result = CompareRecords({MeasuredRun("a", 1)}, {MeasuredRun("a", 2, 2.2e6)}, {});
  const std::string text = ComparisonText(result.value());
  EXPECT_EQ(text.rfind("model  target     scenario       metric", 0), 0u) << text;
  EXPECT_NE(text.find("+-1.00% (the noise threshold)"), std::string::npos);
  const std::string markdown = ComparisonMarkdown(result.value());
  EXPECT_EQ(markdown.rfind("**edgebench compare: 1 slower**", 0), 0u) << markdown;
  const nlohmann::json json = ComparisonToJson(result.value());
  EXPECT_EQ(json["cases"][0]["metrics"][0]["verdict"], "slower");
  EXPECT_EQ(json["cases"][0]["base"]["record_id"], "a-1");
}

// Several runs of a case in the stores: p50 and p99 are compared run by run (each run's value an
// observation), so runs that differ among themselves as much as between the stores are no change.
TEST(Compare, ThreeRunsOrMoreAreComparedRunByRun) {
  // BASE's two runs at 2.0 and 2.4 ms, NEW's at 2.2 and 2.3: within the run-to-run spread.
  std::vector<Record> base = {MeasuredRun("k", 1, 2.0e6), MeasuredRun("k", 2, 2.4e6)};
  std::vector<Record> candidate = {MeasuredRun("k", 3, 2.2e6), MeasuredRun("k", 4, 2.3e6)};
  auto result = CompareRecords(base, candidate, {});
  ASSERT_TRUE(result.ok()) << result.error();
  const CaseComparison& c = result.value().cases[0];
  EXPECT_EQ(result.value().run_level_cases, 1);
  EXPECT_EQ(result.value().single_run_cases, 0);
  const MetricComparison* p50 = MetricNamed(c, "p50");
  ASSERT_TRUE(p50);
  EXPECT_EQ(p50->base_samples, 2);
  EXPECT_EQ(p50->candidate_samples, 2);
  EXPECT_NE(p50->note.find("run level"), std::string::npos) << p50->note;
  EXPECT_NEAR(p50->base, std::sqrt(2.0 * 2.4), 0.02);  // geometric mean of the runs, in ms
  EXPECT_EQ(c.verdict, CaseVerdict::kNoChange);
  // The last runs alone, query by query, would have called NEW 4% faster.
  auto last_only = CompareRecords({base.back()}, {candidate.back()}, {});
  ASSERT_TRUE(last_only.ok());
  EXPECT_EQ(last_only.value().cases[0].verdict, CaseVerdict::kFaster);
  EXPECT_EQ(last_only.value().single_run_cases, 1);
  EXPECT_NE(ComparisonText(last_only.value()).find("caution: 1 case(s) had one run a side"), std::string::npos);
  // Runs twice as slow in NEW are slower even run by run.
  auto slow = CompareRecords(base, {MeasuredRun("k", 5, 4.4e6), MeasuredRun("k", 6, 4.6e6)}, {});
  ASSERT_TRUE(slow.ok());
  EXPECT_EQ(slow.value().cases[0].verdict, CaseVerdict::kSlower);
}

// Issue 50, class 7: compare judged INVALID records ("slower, p=1e-05") without a word, and printed
// an interval of [-100%, +13,579,885%] as if it sized the change. Both are said where they are read.
TEST(Compare, AVerdictOnAnInvalidRecordAndAnIntervalTooWideAreSaid) {
  Record base = MeasuredRun("k", 1);
  Record candidate = MeasuredRun("k", 2, 1.8e6);
  candidate.valid = false;
  candidate.invalid_reasons = {"the machine was busy"};
  auto result = CompareRecords({base}, {candidate}, {});
  ASSERT_TRUE(result.ok()) << result.error();
  const CaseComparison& c = result.value().cases.at(0);
  ASSERT_FALSE(c.notes.empty());
  EXPECT_EQ(c.notes.front(), "NEW's record is INVALID (the machine was busy): the verdict is on numbers its own check "
                             "did not trust");
  EXPECT_FALSE(c.candidate.valid);
  const std::string text = ComparisonText(result.value());
  EXPECT_NE(text.find("(INVALID record)"), std::string::npos) << text;
  EXPECT_NE(ComparisonToJson(result.value()).dump().find("\"valid\":false"), std::string::npos);
  MetricComparison wide;
  wide.ci_low = -1.0;
  wide.ci_high = 135798.85;
  EXPECT_NE(IntervalText(wide).find("too wide to size the change"), std::string::npos) << IntervalText(wide);
  wide.ci_high = 0.05;
  EXPECT_EQ(IntervalText(wide).find("too wide"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
