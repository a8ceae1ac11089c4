// The token-timing math against a fake generator on a fake clock: exact values.
#include "load/llm_scenario.h"

#include <gtest/gtest.h>

#include "stats/llm_summary.h"

namespace edgebench {
namespace {

// Each call advances the fake clock: prefill costs 1000 ns per prompt token, a decode step
// 300 ns plus 100 ns per sequence. It records the calls so the empty-KV rule can be checked.
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
    kv_tokens_ = 0;
    *clock_ += 12345;  // clearing takes time that must not count
    return Status::Ok();
  }
  Result<std::vector<int32_t>> Prefill(const std::vector<std::vector<int32_t>>& prompts) override {
    calls.push_back(kv_tokens_ == 0 ? "prefill-empty" : "prefill-dirty");
    for (const auto& p : prompts) {
      *clock_ += 1000 * static_cast<int64_t>(p.size());
      kv_tokens_ += static_cast<int64_t>(p.size());
    }
    return std::vector<int32_t>(prompts.size(), 1);
  }
  Result<std::vector<int32_t>> DecodeStep(const std::vector<int32_t>& last) override {
    calls.push_back("decode");
    *clock_ += 300 + 100 * static_cast<int64_t>(last.size());
    kv_tokens_ += static_cast<int64_t>(last.size());
    return std::vector<int32_t>(last.size(), 2);
  }
  std::vector<std::string> calls;

 private:
  int64_t* clock_;
  int64_t kv_tokens_ = 0;
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
    EXPECT_EQ(r.tpot_gaps_ns(), (std::vector<int64_t>{400, 400, 400}));
  }
  const LlmSummary sum = SummarizeLlm(samples.measured, samples.prompt_tokens, s.sequences);
  EXPECT_EQ(sum.requests, 2);
  EXPECT_DOUBLE_EQ(sum.ttft.mean_ns, 8000);
  EXPECT_EQ(sum.ttft.Percentile(0.5), 8000);
  EXPECT_EQ(sum.tpot.count, 6);
  EXPECT_DOUBLE_EQ(sum.tpot.mean_ns, 400);
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
  EXPECT_EQ(samples.measured[0].tpot_gaps_ns(), (std::vector<int64_t>{700, 700}));
  const LlmSummary sum = SummarizeLlm(samples.measured, samples.prompt_tokens, s.sequences);
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
  const std::vector<std::string> one = {"clear", "prefill-empty", "decode"};
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
  EXPECT_TRUE(samples.measured[0].tpot_gaps_ns().empty());
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

}  // namespace
}  // namespace edgebench
