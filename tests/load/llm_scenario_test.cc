// The token-timing math against a fake generator on a fake clock: exact values.
#include "load/llm_scenario.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "stats/llm_summary.h"

namespace edgebench {
namespace {

// Each call advances the fake clock: prefill costs 1000 ns per prompt token (all prompts of
// the call), a decode step 300 ns plus 100 ns per sequence, clearing one sequence nothing. It
// records the calls so the empty-KV rule can be checked, and which sequences hold tokens.
class FakeLlm : public LlmSession {
 public:
  explicit FakeLlm(int64_t* clock) : clock_(clock) {}
  LlmSessionInfo Info() const override {
    LlmSessionInfo info;
    info.vocab_size = 50;
    info.max_sequences = 4;
    return info;
  }
  Result<std::vector<int32_t>> Tokenize(const std::string& text) override {
    return std::vector<int32_t>(text.size(), 7);  // one token per character
  }
  Status ClearState() override {
    calls.push_back("clear");
    kv_tokens_.assign(4, 0);
    *clock_ += 12345;  // clearing takes time that must not count
    return Status::Ok();
  }
  Status ClearSequence(int32_t sequence) override {
    calls.push_back("clear-" + std::to_string(sequence));
    kv_tokens_.at(static_cast<size_t>(sequence)) = 0;
    return Status::Ok();
  }
  Result<std::vector<int32_t>> Prefill(const std::vector<LlmSequencePrompt>& prompts) override {
    std::string call = "prefill";
    for (const auto& p : prompts) {
      int64_t& held = kv_tokens_.at(static_cast<size_t>(p.sequence));
      call += (held == 0 ? "-empty" : "-dirty");
      *clock_ += 1000 * static_cast<int64_t>(p.tokens.size());
      held += static_cast<int64_t>(p.tokens.size());
    }
    calls.push_back(call);
    return std::vector<int32_t>(prompts.size(), 1);
  }
  Result<std::vector<int32_t>> DecodeStep(const std::vector<LlmSequenceToken>& last) override {
    std::string call = "decode";
    for (const auto& t : last) {
      call += "-" + std::to_string(t.sequence);
      ++kv_tokens_.at(static_cast<size_t>(t.sequence));
    }
    calls.push_back(call);
    *clock_ += 300 + 100 * static_cast<int64_t>(last.size());
    return std::vector<int32_t>(last.size(), 2);
  }
  std::vector<std::string> calls;

 private:
  int64_t* clock_;
  std::vector<int64_t> kv_tokens_ = std::vector<int64_t>(4, 0);
};

TEST(LlmScenario, ExactTtftAndTpot) {
  int64_t clock = 0;
  FakeLlm fake(&clock);
  LlmSettings s;
  s.prompt_tokens = 8;
  s.gen_tokens = 4;  // first token + 3 decode steps
  s.repetitions = 2;
  s.warmup_requests = 1;
  s.sequences = 1;
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  ASSERT_TRUE(samples.error.ok()) << samples.error.message();
  ASSERT_EQ(samples.warmup.size(), 1u);
  ASSERT_EQ(samples.measured.size(), 2u);
  for (const auto& r : samples.measured) {
    EXPECT_EQ(r.ttft_ns(), 8000);  // prefill only: clearing is outside the request
    EXPECT_EQ(r.itl_gaps_ns(), (std::vector<int64_t>{400, 400, 400}));
  }
  const LlmSummary sum = SummarizeLlm(samples.measured, samples.prompt_tokens, s);
  EXPECT_EQ(sum.requests, 2);
  EXPECT_DOUBLE_EQ(sum.ttft.mean_ns, 8000);
  EXPECT_EQ(sum.ttft.Percentile(0.5), 8000);
  EXPECT_EQ(sum.itl.count, 6);
  EXPECT_DOUBLE_EQ(sum.itl.mean_ns, 400);
  EXPECT_EQ(sum.tpot.count, 2);  // one per request
  EXPECT_EQ(sum.tpot.Percentile(0.5), 400);
  EXPECT_DOUBLE_EQ(sum.prefill_tokens_per_s, 8.0 / 8000e-9);
  EXPECT_DOUBLE_EQ(sum.decode_tokens_per_s, 1.0 / 400e-9);
}

TEST(LlmScenario, SequencesShareTheStepAndMultiplyThroughput) {
  int64_t clock = 0;
  FakeLlm fake(&clock);
  LlmSettings s;
  s.prompt_tokens = 10;
  s.gen_tokens = 3;
  s.repetitions = 1;
  s.warmup_requests = 0;
  s.sequences = 4;
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  ASSERT_TRUE(samples.error.ok());
  EXPECT_EQ(samples.measured[0].ttft_ns(), 4 * 10 * 1000);
  EXPECT_EQ(samples.measured[0].itl_gaps_ns(), (std::vector<int64_t>{700, 700}));
  const LlmSummary sum = SummarizeLlm(samples.measured, samples.prompt_tokens, s);
  EXPECT_DOUBLE_EQ(sum.per_sequence_tokens_per_s, 1.0 / 700e-9);
  EXPECT_DOUBLE_EQ(sum.decode_tokens_per_s, 4.0 / 700e-9);
  EXPECT_DOUBLE_EQ(sum.prefill_tokens_per_s, 40.0 / 40000e-9);
}

TEST(LlmScenario, EveryRequestStartsFromAnEmptyKvState) {
  int64_t clock = 0;
  FakeLlm fake(&clock);
  LlmSettings s;
  s.prompt_tokens = 4;
  s.gen_tokens = 2;
  s.repetitions = 3;
  s.warmup_requests = 2;
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  ASSERT_TRUE(samples.error.ok());
  const std::vector<std::string> one = {"clear", "prefill-empty", "decode-0"};
  std::vector<std::string> expected;
  for (int i = 0; i < 5; ++i) expected.insert(expected.end(), one.begin(), one.end());
  EXPECT_EQ(fake.calls, expected);
}

TEST(LlmScenario, TextPromptsGoThroughTheTokenizer) {
  int64_t clock = 0;
  FakeLlm fake(&clock);
  LlmSettings s;
  s.prompt_text = "hello";
  s.gen_tokens = 1;
  s.repetitions = 1;
  s.warmup_requests = 0;
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  EXPECT_EQ(samples.prompt_tokens, 5);
  EXPECT_EQ(samples.prompt_source, "text through the model's tokenizer");
  EXPECT_EQ(samples.measured[0].ttft_ns(), 5000);
  EXPECT_TRUE(samples.measured[0].itl_gaps_ns().empty());
}

TEST(LlmScenario, SeededPromptsAreReproducibleAndInVocabulary) {
  const auto a = SeededPrompts(2, 16, 50, 9);
  const auto b = SeededPrompts(2, 16, 50, 9);
  EXPECT_EQ(a, b);
  EXPECT_NE(a[0], a[1]);
  for (const auto& p : a) {
    for (int32_t t : p) {
      EXPECT_GE(t, 0);
      EXPECT_LT(t, 50);
    }
  }
}

// Concurrency 2, closed loop, by hand (T = the phase's start; the fake's costs above):
//   T+0     A (prompt 2, gen 3) and B (prompt 3, gen 2) join; one prefill of 5 tokens
//   T+5000  first tokens of A and B; step {A, B} costs 500
//   T+5500  A's 2nd, B's 2nd: B is done, its sequence cleared; C (prompt 1, gen 2) joins
//           B's slot and is prefilled alone (1000)
//   T+6500  C's first token; step {A, C} costs 500
//   T+7000  A's 3rd and C's 2nd: both done.
// A: TTFT 5000, E2E 7000, TPOT (7000 - 5000) / 2 = 1000, gaps 500 and 1500 (C's prefill
// stalls A: that is what ITL shows and per-request TPOT averages). B: 5000, 5500, 500.
// C: start 5500, TTFT 1000, E2E 1500, TPOT 500.
std::vector<LlmPlannedRequest> ThreeRequests() {
  return {{0, {1, 2}, 3}, {0, {3, 4, 5}, 2}, {0, {6}, 2}};
}

TEST(LlmServing, ContinuousBatchingExactTimings) {
  int64_t clock = 100;
  FakeLlm fake(&clock);
  std::vector<LlmRequestTiming> timings;
  std::string stage;
  const Status served = ServeLlmRequests(fake, ThreeRequests(), 2, /*open_loop=*/false,
                                         LlmClock{[&] { return clock; }, {}}, timings, stage);
  ASSERT_TRUE(served.ok()) << served.message();
  ASSERT_EQ(timings.size(), 3u);
  const LlmRequestTiming& a = timings[0];
  const LlmRequestTiming& b = timings[1];
  const LlmRequestTiming& c = timings[2];
  EXPECT_EQ(a.start_ns, 100);
  EXPECT_EQ(a.ttft_ns(), 5000);
  EXPECT_EQ(a.e2e_ns(), 7000);
  EXPECT_EQ(a.tpot_ns(), 1000.0);
  EXPECT_EQ(a.itl_gaps_ns(), (std::vector<int64_t>{500, 1500}));
  EXPECT_EQ(a.prompt_tokens, 2);
  EXPECT_EQ(b.ttft_ns(), 5000);
  EXPECT_EQ(b.e2e_ns(), 5500);
  EXPECT_EQ(b.tpot_ns(), 500.0);
  EXPECT_EQ(c.start_ns, 100 + 5500);  // joined when B finished
  EXPECT_EQ(c.ttft_ns(), 1000);
  EXPECT_EQ(c.e2e_ns(), 1500);
  EXPECT_EQ(c.tpot_ns(), 500.0);
  EXPECT_EQ(fake.calls, (std::vector<std::string>{"prefill-empty-empty", "decode-0-1", "clear-1",
                                                  "prefill-empty", "decode-0-1", "clear-0", "clear-1"}));

  LlmSettings s;
  s.concurrency = 2;
  const LlmSummary sum = SummarizeLlm(timings, 0, s);
  EXPECT_EQ(sum.requests, 3);
  EXPECT_EQ(sum.wall_ns, 7000);
  EXPECT_EQ(sum.ttft.Percentile(0.5), 5000);
  EXPECT_EQ(sum.ttft.min_ns, 1000);
  EXPECT_EQ(sum.tpot.count, 3);
  EXPECT_EQ(sum.tpot.Percentile(0.5), 500);
  EXPECT_EQ(sum.tpot.max_ns, 1000);
  EXPECT_EQ(sum.e2e.Percentile(0.5), 5500);
  EXPECT_EQ(sum.itl.count, 4);  // 2 + 1 + 1 gaps, pooled
  EXPECT_DOUBLE_EQ(sum.itl.mean_ns, (500 + 1500 + 500 + 500) / 4.0);
  EXPECT_EQ(sum.itl.max_ns, 1500);
  EXPECT_EQ(sum.output_tokens, 4);
  EXPECT_DOUBLE_EQ(sum.aggregate_tokens_per_s, 4 / 7000e-9);
  EXPECT_EQ(sum.prefill_tokens_per_s, 0);  // TTFT under load is no prefill speed
  EXPECT_EQ(sum.slo_met, 0);               // no SLO set
}

TEST(LlmServing, GoodputCountsRequestsMeetingBothBounds) {
  int64_t clock = 0;
  FakeLlm fake(&clock);
  std::vector<LlmRequestTiming> timings;
  std::string stage;
  ASSERT_TRUE(ServeLlmRequests(fake, ThreeRequests(), 2, false, LlmClock{[&] { return clock; }, {}}, timings, stage)
                  .ok());
  LlmSettings s;
  s.concurrency = 2;
  s.slo = {5000, 600};  // A misses TPOT (1000), B and C meet both (bounds are inclusive)
  LlmSummary sum = SummarizeLlm(timings, 0, s);
  EXPECT_EQ(sum.slo_met, 2);
  EXPECT_DOUBLE_EQ(sum.goodput_rps, 2 / 7000e-9);
  s.slo = {4999, 0};  // only C's TTFT (1000) is under
  sum = SummarizeLlm(timings, 0, s);
  EXPECT_EQ(sum.slo_met, 1);
  // A single-token request has no TPOT and meets any TPOT bound.
  LlmRequestTiming one;
  one.first_token_ns = 10;
  EXPECT_TRUE(MeetsSlo(one, {0, 1}));
  EXPECT_FALSE(MeetsSlo(one, {9, 0}));
}

// Open loop, concurrency 1: B arrives while A runs and waits (its TTFT counts the wait from
// its arrival); C arrives after everything is done, so the server idles until then.
TEST(LlmServing, OpenLoopCountsQueueingFromTheScheduledArrival) {
  int64_t clock = 0;
  FakeLlm fake(&clock);
  std::vector<int64_t> waits;
  LlmClock fake_clock{[&] { return clock; }, [&](int64_t t) {
                        waits.push_back(t);
                        clock = t;
                      }};
  const std::vector<LlmPlannedRequest> requests = {{0, {1, 2}, 2}, {1000, {1}, 2}, {50000, {1}, 1}};
  std::vector<LlmRequestTiming> timings;
  std::string stage;
  ASSERT_TRUE(ServeLlmRequests(fake, requests, 1, /*open_loop=*/true, fake_clock, timings, stage).ok());
  ASSERT_EQ(timings.size(), 3u);
  // A: prefill 2000, one step 400 -> ends at 2400. B arrived at 1000, starts serving at 2400:
  // first token at 3400, TTFT 2400; step 400 -> 3800. C at 50000 after a wait: TTFT 1000.
  EXPECT_EQ(timings[0].ttft_ns(), 2000);
  EXPECT_EQ(timings[0].e2e_ns(), 2400);
  EXPECT_EQ(timings[1].start_ns, 1000);
  EXPECT_EQ(timings[1].ttft_ns(), 2400);
  EXPECT_EQ(timings[1].e2e_ns(), 2800);
  EXPECT_EQ(timings[2].start_ns, 50000);
  EXPECT_EQ(timings[2].ttft_ns(), 1000);
  EXPECT_EQ(timings[2].e2e_ns(), 1000);
  EXPECT_EQ(waits, (std::vector<int64_t>{50000}));
}

TEST(LlmServing, ScenarioRunsWarmupClosedLoopThenMeasured) {
  int64_t clock = 0;
  FakeLlm fake(&clock);
  LlmSettings s;
  s.prompt_tokens = 4;
  s.gen_tokens = 3;
  s.concurrency = 2;
  s.repetitions = 4;
  s.warmup_requests = 2;
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  ASSERT_TRUE(samples.error.ok()) << samples.error.message();
  ASSERT_EQ(samples.warmup.size(), 2u);
  ASSERT_EQ(samples.measured.size(), 4u);
  // Pairs run together: prefill 8000, two steps of 500 each.
  for (const auto& r : samples.measured) {
    EXPECT_EQ(r.ttft_ns(), 8000);
    EXPECT_EQ(r.itl_gaps_ns(), (std::vector<int64_t>{500, 500}));
    EXPECT_EQ(r.prompt_tokens, 4);
  }
  EXPECT_EQ(samples.measured[2].start_ns, samples.measured[0].end_ns());
  EXPECT_EQ(std::count(fake.calls.begin(), fake.calls.end(), "clear"), 2);  // once per phase
}

// What the progress line's "request i/N" counts: every finished request of each phase, in
// order, in lockstep and under serving load alike.
class ProgressLog : public RunObserver {
 public:
  void OnPhaseStart(const std::string& phase, int64_t) override { events.push_back(phase); }
  void OnProgress(int64_t done, int64_t total) override {
    events.push_back(std::to_string(done) + "/" + std::to_string(total));
  }
  std::vector<std::string> events;
};

TEST(LlmScenario, EveryFinishedRequestIsCountedForTheProgressLine) {
  for (int64_t concurrency : {1, 2}) {
    int64_t clock = 0;
    FakeLlm fake(&clock);
    LlmSettings s;
    s.prompt_tokens = 4;
    s.gen_tokens = 2;
    s.repetitions = 3;
    s.warmup_requests = 1;
    s.concurrency = concurrency;
    ProgressLog log;
    auto samples = RunLlmScenario(fake, s, [&] { return clock; }, &log);
    ASSERT_TRUE(samples.error.ok()) << samples.error.message();
    EXPECT_EQ(log.events, (std::vector<std::string>{"warmup", "1/1", "measure", "1/3", "2/3", "3/3"}))
        << "concurrency " << concurrency;
  }
}

TEST(LlmServing, PlannedRequestsAreSeededAndPoisson) {
  LlmSettings s;
  s.seed = 3;
  s.rate = 20;
  s.prompt_range = {64, 256};
  s.gen_range = {16, 64};
  const auto a = PlanLlmRequests(s, 20000, 50, {}, 0);
  const auto b = PlanLlmRequests(s, 20000, 50, {}, 0);
  ASSERT_EQ(a.size(), 20000u);
  bool lengths_vary = false;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].prompt, b[i].prompt);
    EXPECT_EQ(a[i].arrival_ns, b[i].arrival_ns);
    ASSERT_GE(a[i].prompt.size(), 64u);
    ASSERT_LE(a[i].prompt.size(), 256u);
    ASSERT_GE(a[i].gen_tokens, 16);
    ASSERT_LE(a[i].gen_tokens, 64);
    if (i > 0 && a[i].prompt.size() != a[0].prompt.size()) lengths_vary = true;
    if (i > 0) {
      ASSERT_GE(a[i].arrival_ns, a[i - 1].arrival_ns);
    }
  }
  EXPECT_TRUE(lengths_vary);
  // Mean gap 1/rate = 50 ms; over 20,000 gaps the standard error is 50 ms / sqrt(20000) = 0.35 ms.
  const double mean_gap_ms = static_cast<double>(a.back().arrival_ns) / 20000 / 1e6;
  EXPECT_NEAR(mean_gap_ms, 50.0, 4 * 0.354);
  // A different rate keeps the same requests; another stream (warmup) gets others.
  s.rate = 5;
  EXPECT_EQ(PlanLlmRequests(s, 3, 50, {}, 0)[2].prompt, a[2].prompt);
  EXPECT_NE(PlanLlmRequests(s, 3, 50, {}, 1)[0].prompt, a[0].prompt);
  // Uniform arrivals: exactly 1/rate apart (a question every 200 ms), the same requests.
  s.uniform_arrivals = true;
  const auto uniform = PlanLlmRequests(s, 3, 50, {}, 0);
  EXPECT_EQ(uniform[0].arrival_ns, 200'000'000);
  EXPECT_EQ(uniform[2].arrival_ns, 600'000'000);
  EXPECT_EQ(uniform[2].prompt, a[2].prompt);
  s.uniform_arrivals = false;
  // Without a rate every request is there at once (closed loop).
  s.rate = 0;
  EXPECT_EQ(PlanLlmRequests(s, 3, 50, {}, 0)[2].arrival_ns, 0);
}

TEST(LlmSettings, SloParsing) {
  auto slo = ParseLlmSlo("--slo", "ttft:500ms,tpot:50ms");
  ASSERT_TRUE(slo.ok()) << slo.error();
  EXPECT_EQ(slo.value().ttft_ns, 500'000'000);
  EXPECT_EQ(slo.value().tpot_ns, 50'000'000);
  EXPECT_EQ(ParseLlmSlo("--slo", "tpot:800us").value().tpot_ns, 800'000);
  EXPECT_EQ(ParseLlmSlo("--slo", "ttft:1.5s").value().ttft_ns, 1'500'000'000);
  EXPECT_EQ(ParseLlmSlo("--slo", "ttft:1.5s").value().tpot_ns, 0);
  for (const char* bad : {"", "ttft", "ttft:500", "ttft:500xs", "ttft:-5ms", "ttft:0ms", "itl:5ms",
                          "ttft:5ms,ttft:6ms", "ttft:5ms,", "ttft:ms"}) {
    auto r = ParseLlmSlo("--slo", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().find("--slo"), std::string::npos) << r.error();
  }
  EXPECT_EQ(ParseLlmTokenRange("--gen-range", "16:64").value(), (LlmTokenRange{16, 64}));
  for (const char* bad : {"16", "64:16", "0:4", "a:4", "4:", "-1:4"}) {
    auto r = ParseLlmTokenRange("--gen-range", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().find("--gen-range"), std::string::npos);
  }
}

}  // namespace
}  // namespace edgebench
