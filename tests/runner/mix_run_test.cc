// A mix's judgement (runner/mix_run.h) on records whose samples the test sets: each workload's
// ratio beside the others against alone, its interval, its objectives; and its command lines.
#include "runner/mix_run.h"

#include <gtest/gtest.h>

#include "load/finish_record.h"

namespace edgebench {
namespace {

Record Latencies(int64_t ms, int count, const std::string& scenario = "single-stream") {
  Record r;
  r.scenario = scenario;
  r.status = CaseStatus::kOk;
  for (int i = 0; i < count; ++i) {
    r.measured_ns.push_back((ms + i % 3) * 1'000'000);
    r.measured_issue_ns.push_back(int64_t{i} * 50'000'000);
  }
  r.measured_wall_ns = int64_t{count} * 50'000'000;
  r.effective_settings.min_queries = 1;
  FinishRecord(r);
  return r;
}

// A workload's process in a phase, its records tagged as RunMix tags them.
MixProcess Process(const std::string& workload, const std::string& phase, std::vector<Record> records,
                   int round = 1) {
  MixProcess p;
  p.round = round;
  p.workload = workload;
  p.phase = phase;
  p.records = std::move(records);
  for (Record& r : p.records) {
    r.mix = MixTag{};
    r.mix->mix = "m";
    r.mix->workload = workload;
    r.mix->phase = phase;
    r.mix->round = round;
  }
  return p;
}

MixSpec TwoWorkloads() {
  MixSpec mix;
  mix.name = "m";
  mix.duration_ms = 10'000;
  MixWorkload fast;
  fast.name = "fast";
  fast.kind = "model";
  fast.scenario = "single-stream";
  fast.objectives.push_back(ParseMixObjective("p99<=30ms").value());
  MixWorkload dead = fast;
  dead.name = "dead";
  dead.objectives.clear();
  mix.workloads = {fast, dead};
  return mix;
}

TEST(MixRun, TheRatioIsMixedAgainstAloneWithAnIntervalAndTheObjectivesAreJudgedMixed) {
  // fast: 10-12 ms alone, 20-22 ms mixed (x2, every resample the same); dead: no mixed record.
  const std::vector<MixProcess> processes = {Process("fast", "alone", {Latencies(10, 200)}),
                                             Process("dead", "alone", {Latencies(5, 200)}),
                                             Process("fast", "mixed", {Latencies(20, 200)}),
                                             Process("dead", "mixed", {})};
  const auto rows = JudgeMix(TwoWorkloads(), processes);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].metric, "p99_ms");
  ASSERT_TRUE(rows[0].ratio && rows[0].ratio_low && rows[0].ratio_high);
  EXPECT_NEAR(*rows[0].ratio, 22.0 / 12.0, 1e-9);
  EXPECT_LE(*rows[0].ratio_low, *rows[0].ratio);
  EXPECT_GE(*rows[0].ratio_high, *rows[0].ratio);
  EXPECT_EQ(rows[0].mixed_status, "ok");
  ASSERT_EQ(rows[0].objectives.size(), 1u);
  EXPECT_TRUE(rows[0].objectives[0].met);  // 22 ms <= 30 ms
  EXPECT_TRUE(rows[0].objectives_met);
  EXPECT_EQ(rows[1].mixed_status, "no record");
  EXPECT_FALSE(rows[1].ratio);
}

TEST(MixRun, TooFewSamplesForAP99ComparesTheMedians) {
  const std::vector<MixProcess> processes = {Process("fast", "alone", {Latencies(10, 20)}),
                                             Process("fast", "mixed", {Latencies(40, 20)})};
  const auto rows = JudgeMix(TwoWorkloads(), processes);
  EXPECT_EQ(rows[0].metric, "p50_ms");
  ASSERT_TRUE(rows[0].ratio);
  EXPECT_NEAR(*rows[0].ratio, 41.0 / 11.0, 1e-9);
  EXPECT_FALSE(rows[0].objectives[0].met);  // no p99 in the mixed record: not met, said so
  EXPECT_FALSE(rows[0].objectives[0].value);
}

TEST(MixRun, MixedFiguresComeFromTheQueriesThatArrivedWhileEveryWorkloadWasMeasured) {
  // fast's mixed phase runs 0-10 s (a query every 50 ms: 200), dead's 6-20 s; they overlap in
  // 6-10 s. fast's queries there (80 of them, arriving at 6.00 ... 9.95 s) take 30 ms, the rest
  // 20 ms: its mixed median is 30 ms, not the 20 ms of all 200.
  Record fast_mixed = Latencies(20, 200);
  fast_mixed.measured_start_ns = 1'000'000'000'000;
  for (size_t i = 0; i < fast_mixed.measured_ns.size(); ++i) {
    if (fast_mixed.measured_issue_ns[i] >= 6'000'000'000) fast_mixed.measured_ns[i] = 30'000'000;
  }
  FinishRecord(fast_mixed);
  Record dead_mixed = Latencies(5, 20);
  dead_mixed.measured_start_ns = fast_mixed.measured_start_ns + 6'000'000'000;
  dead_mixed.measured_wall_ns = 14'000'000'000;
  const std::vector<MixProcess> processes = {Process("fast", "alone", {Latencies(10, 20)}),
                                             Process("dead", "alone", {Latencies(5, 20)}),
                                             Process("fast", "mixed", {fast_mixed}),
                                             Process("dead", "mixed", {dead_mixed})};
  std::vector<const Record*> mixed = {&processes[2].records.front(), &processes[3].records.front()};
  const auto overlap = MixOverlap(mixed);
  ASSERT_TRUE(overlap);
  EXPECT_EQ(overlap->start_ns, dead_mixed.measured_start_ns);
  EXPECT_EQ(overlap->end_ns, fast_mixed.measured_start_ns + 10'000'000'000);
  const auto rows = JudgeMix(TwoWorkloads(), processes);
  EXPECT_EQ(rows[0].mixed_samples, 80);
  EXPECT_EQ(rows[0].mixed_samples_total, 200);
  EXPECT_EQ(rows[0].metric, "p50_ms");  // 20 alone: too few for a p99
  ASSERT_TRUE(rows[0].mixed);
  EXPECT_DOUBLE_EQ(*rows[0].mixed, 30.0);
  // dead's 20 queries arrived at 6.00 ... 6.95 s: all inside.
  EXPECT_EQ(rows[1].mixed_samples, 20);
  // Phases that never ran at once give no mixed figure rather than one measured alone.
  Record late = dead_mixed;
  late.measured_start_ns += 100'000'000'000;
  const std::vector<MixProcess> apart = {processes[0], processes[1], processes[2], Process("dead", "mixed", {late})};
  const auto apart_rows = JudgeMix(TwoWorkloads(), apart);
  EXPECT_EQ(apart_rows[0].mixed_samples, 0);
  EXPECT_FALSE(apart_rows[0].mixed);
  EXPECT_FALSE(apart_rows[0].ratio);
}

TEST(MixRun, RoundsPoolTheirSamplesEachFromItsOwnOverlapAndEveryRoundMustMeetTheObjectives) {
  // Round 1: fast 10-12 ms alone, 20-22 ms mixed; round 2: 10-12 ms alone, 40-42 ms mixed. Each
  // round's mixed phases overlap whole (no arrivals kept). Pooled: 400 mixed queries, half at
  // 20-22 and half at 40-42, so the p99 is 42 ms; the objective p99<=30ms is met in round 1 and
  // not in round 2: not met, with round 2's figure.
  const std::vector<MixProcess> processes = {
      Process("fast", "alone", {Latencies(10, 200)}, 1), Process("fast", "mixed", {Latencies(20, 200)}, 1),
      Process("dead", "alone", {Latencies(5, 200)}, 1),  Process("dead", "mixed", {Latencies(5, 200)}, 1),
      Process("fast", "mixed", {Latencies(40, 200)}, 2), Process("fast", "alone", {Latencies(10, 200)}, 2),
      Process("dead", "mixed", {Latencies(5, 200)}, 2),  Process("dead", "alone", {Latencies(5, 200)}, 2)};
  const auto rows = JudgeMix(TwoWorkloads(), processes);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rounds, 2);
  EXPECT_EQ(rows[0].mixed_samples, 400);
  EXPECT_EQ(rows[0].metric, "p99_ms");
  ASSERT_TRUE(rows[0].mixed && rows[0].alone);
  EXPECT_DOUBLE_EQ(*rows[0].mixed, 42.0);
  EXPECT_DOUBLE_EQ(*rows[0].alone, 12.0);
  ASSERT_EQ(rows[0].objectives.size(), 1u);
  EXPECT_FALSE(rows[0].objectives[0].met);
  ASSERT_TRUE(rows[0].objectives[0].value);
  EXPECT_DOUBLE_EQ(*rows[0].objectives[0].value, 42.0);  // round 2's p99, the worst
  // A round in which the workload crashed leaves the status of that round.
  std::vector<MixProcess> crashed = processes;
  crashed[6].records.front().status = CaseStatus::kCrashed;
  EXPECT_EQ(JudgeMix(TwoWorkloads(), crashed)[1].mixed_status, "crashed");
}

TEST(MixRun, AnAssistantAsksAtItsRateAndAVisionOneSendsItsImages) {
  MixSpec mix = TwoWorkloads();
  MixWorkload eyes;
  eyes.name = "eyes";
  eyes.kind = "llm";
  eyes.path = "m.gguf";
  eyes.target = "llamacpp:cpu";
  eyes.every_s = 4;
  eyes.arrivals = "uniform";
  eyes.gen = 8;
  eyes.mmproj = "p.gguf";
  eyes.images = {"a.png", "b.png"};
  eyes.prompt_text = "What is this?";
  const auto run = MixWorkloadArguments(mix, eyes, "/bin/edgebench", "/out", false);
  // 10 s at one request every 4 s: 3 requests.
  EXPECT_EQ(run, (std::vector<std::string>{"/bin/edgebench", "llm", "m.gguf", "-t", "llamacpp:cpu", "--rate", "0.25",
                                           "--arrivals", "uniform", "-r", "3", "-n", "8", "--mmproj", "p.gguf",
                                           "--prompt-text", "What is this?", "--image", "a.png", "--image", "b.png",
                                           "--allow-busy", "--out", "/out", "--format", "json"}));
}

TEST(MixRun, EachWorkloadRunsAsItsOwnCommandForTheMixsDuration) {
  MixSpec mix = TwoWorkloads();
  mix.workloads[0].path = "m.onnx";
  mix.workloads[0].target = "ort:cpu";
  const auto run = MixWorkloadArguments(mix, mix.workloads[0], "/bin/edgebench", "/out", true);
  EXPECT_EQ(run, (std::vector<std::string>{"/bin/edgebench", "run", "m.onnx", "-t", "ort:cpu", "--scenario",
                                           "single-stream", "--min-duration", "10000", "--max-duration", "15000",
                                           "--min-queries", "1", "--allow-busy", "--out", "/out", "--format", "json",
                                           "--no-monitor"}));
  MixWorkload chat;
  chat.name = "chat";
  chat.kind = "llm";
  chat.path = "t.gguf";
  chat.target = "llamacpp:cpu";
  chat.every_s = 4;  // 10 s / 4 s: 3 requests
  const auto llm = MixWorkloadArguments(mix, chat, "/bin/edgebench", "/out", false);
  EXPECT_EQ(llm, (std::vector<std::string>{"/bin/edgebench", "llm", "t.gguf", "-t", "llamacpp:cpu", "--rate", "0.25",
                                           "--arrivals", "poisson", "-r", "3", "-n", "16", "-p", "64", "--allow-busy",
                                           "--out", "/out", "--format", "json"}));
}

}  // namespace
}  // namespace edgebench
