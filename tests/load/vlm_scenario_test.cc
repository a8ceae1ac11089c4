// Vision-language requests' stage timing against a fake session on a fake clock: exact values,
// the image rotation, TTFT >= the stages, and where a failure is reported.
#include <gtest/gtest.h>

#include "load/llm_scenario.h"
#include "load/vlm_request.h"
#include "stats/llm_summary.h"

namespace edgebench {
namespace {

// A prompt of K images (each kImageTokens) then one text chunk of the text's length.
constexpr int64_t kImageTokens = 16;

class FakePrompt : public LlmMediaPrompt {
 public:
  explicit FakePrompt(std::vector<LlmMediaChunk> chunks) : chunks_(std::move(chunks)) {}
  const std::vector<LlmMediaChunk>& Chunks() const override { return chunks_; }

 private:
  std::vector<LlmMediaChunk> chunks_;
};

// Costs on the fake clock: pre-processing 5000 ns per image, encode 70000, an image's prefill
// 300 per token, text 1000 per token, a decode step 400. "bad.png" fails pre-processing;
// `fail_encode` makes the encoder fail.
class FakeVisionLlm : public LlmSession {
 public:
  explicit FakeVisionLlm(int64_t* clock) : clock_(clock) {}
  LlmSessionInfo Info() const override {
    LlmSessionInfo info;
    info.vocab_size = 50;
    info.max_sequences = 4;
    return info;
  }
  Result<std::vector<int32_t>> Tokenize(const std::string&) override { return Status::Error("not for images"); }
  Status ClearState() override { return Status::Ok(); }
  Status ClearSequence(int32_t) override { return Status::Ok(); }
  Result<std::vector<int32_t>> Prefill(const std::vector<LlmSequencePrompt>&) override {
    return Status::Error("a vision request must not go through Prefill");
  }
  Result<std::vector<int32_t>> DecodeStep(const std::vector<LlmSequenceToken>& last) override {
    *clock_ += 400;
    return std::vector<int32_t>(last.size(), 3);
  }
  Result<std::unique_ptr<LlmMediaPrompt>> PrepareMedia(const std::vector<std::string>& images,
                                                       const std::string& text) override {
    seen_images.push_back(images);
    *clock_ += 5000 * static_cast<int64_t>(images.size());
    for (const std::string& i : images) {
      if (i == "bad.png") return Status::Error("image 'bad.png' could not be decoded");
    }
    std::vector<LlmMediaChunk> chunks(images.size(), LlmMediaChunk{true, kImageTokens});
    chunks.push_back({false, static_cast<int64_t>(text.size())});
    return std::unique_ptr<LlmMediaPrompt>(new FakePrompt(chunks));
  }
  Status EncodeImage(LlmMediaPrompt&, size_t) override {
    *clock_ += 70000;
    return fail_encode ? Status::Error("encoder failed") : Status::Ok();
  }
  Result<int32_t> PrefillMediaChunk(LlmMediaPrompt& prompt, size_t chunk, int32_t) override {
    const LlmMediaChunk& c = prompt.Chunks()[chunk];
    *clock_ += (c.image ? 300 : 1000) * c.tokens;
    return chunk + 1 == prompt.Chunks().size() ? 9 : -1;
  }
  bool fail_encode = false;
  std::vector<std::vector<std::string>> seen_images;

 private:
  int64_t* clock_;
};

LlmSettings VisionSettings() {
  LlmSettings s;
  s.prompt_text = "describe";  // 8 text tokens in the fake
  s.images = {"a.png", "b.png", "c.png"};
  s.images_per_request = 2;
  s.mmproj = "mmproj.gguf";
  s.gen_tokens = 3;
  s.repetitions = 3;
  s.warmup_requests = 0;
  return s;
}

TEST(VlmScenario, RequestsTakeTheImagesInTurn) {
  LlmSettings s = VisionSettings();
  EXPECT_EQ(RequestImages(s, 0), (std::vector<std::string>{"a.png", "b.png"}));
  EXPECT_EQ(RequestImages(s, 1), (std::vector<std::string>{"c.png", "a.png"}));
  EXPECT_EQ(RequestImages(s, 2), (std::vector<std::string>{"b.png", "c.png"}));
  EXPECT_EQ(RequestImages(s, 3), (std::vector<std::string>{"a.png", "b.png"}));
  s.images_per_request = 1;
  EXPECT_EQ(RequestImages(s, 4), (std::vector<std::string>{"b.png"}));
  s.images.clear();
  EXPECT_TRUE(RequestImages(s, 0).empty());
}

TEST(VlmScenario, EachStageIsTimedApartAndTtftHoldsThemAll) {
  int64_t clock = 0;
  FakeVisionLlm fake(&clock);
  const LlmSettings s = VisionSettings();
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  ASSERT_TRUE(samples.error.ok()) << samples.error.message();
  ASSERT_EQ(samples.measured.size(), 3u);
  for (const LlmRequestTiming& r : samples.measured) {
    ASSERT_TRUE(r.vision.has_value());
    const LlmVisionStages& v = *r.vision;
    EXPECT_EQ(v.preprocess_ns, 10000);
    EXPECT_EQ(v.encode_ns, 140000);
    EXPECT_EQ(v.image_prefill_ns, 2 * 300 * kImageTokens);
    EXPECT_EQ(v.text_prefill_ns, 8000);
    EXPECT_EQ(v.images, 2);
    EXPECT_EQ(v.image_tokens, 2 * kImageTokens);
    EXPECT_EQ(v.text_tokens, 8);
    EXPECT_EQ(r.prompt_tokens, 2 * kImageTokens + 8);
    EXPECT_GE(r.ttft_ns(), v.total_ns());
    EXPECT_EQ(r.ttft_ns(), v.total_ns());  // one request at a time: nothing else in TTFT
    EXPECT_EQ(r.token_ns.size(), 2u);      // 3 tokens, the first from the prefill
  }
  EXPECT_EQ(samples.prompt_tokens, 2 * kImageTokens + 8);
  ASSERT_EQ(fake.seen_images.size(), 3u);
  EXPECT_EQ(fake.seen_images[1], (std::vector<std::string>{"c.png", "a.png"}));

  const LlmSummary summary = SummarizeLlm(samples.measured, samples.prompt_tokens, s);
  ASSERT_TRUE(summary.vision.has_value());
  EXPECT_EQ(summary.vision->requests, 3);
  EXPECT_EQ(summary.vision->images, 6);
  EXPECT_DOUBLE_EQ(summary.vision->image_tokens_per_image, kImageTokens);
  EXPECT_EQ(summary.vision->encode.Percentile(0.5), 140000);
  EXPECT_EQ(summary.vision->encode_per_image.Percentile(0.5), 70000);
  EXPECT_EQ(summary.vision->ttft_other.Percentile(0.5), 0);
  const double ttft = 10000 + 140000 + 2 * 300 * kImageTokens + 8000;
  EXPECT_DOUBLE_EQ(summary.vision->share_encode, 140000 / ttft);
  // Prefill speed counts the prefill stages only, not pre-processing and encode.
  EXPECT_DOUBLE_EQ(summary.prefill_tokens_per_s, (2 * kImageTokens + 8) * 1e9 / (2 * 300 * kImageTokens + 8000));
  EXPECT_NEAR(summary.vision->share_preprocess + summary.vision->share_encode + summary.vision->share_image_prefill +
                  summary.vision->share_text_prefill + summary.vision->share_other,
              1.0, 1e-12);
}

TEST(VlmScenario, UnderLoadAJoiningRequestsStagesRunBetweenDecodeSteps) {
  int64_t clock = 0;
  FakeVisionLlm fake(&clock);
  LlmSettings s = VisionSettings();
  s.concurrency = 2;
  s.images_per_request = 1;
  s.repetitions = 4;
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  ASSERT_TRUE(samples.error.ok()) << samples.error.message();
  ASSERT_EQ(samples.measured.size(), 4u);
  // Both slots are filled at once: the second request's TTFT also holds the first's prefill.
  const LlmRequestTiming& second = samples.measured[1];
  ASSERT_TRUE(second.vision.has_value());
  const int64_t one_prefill = 5000 + 70000 + 300 * kImageTokens + 8000;
  EXPECT_EQ(second.vision->total_ns(), one_prefill);
  EXPECT_EQ(second.ttft_ns(), 2 * one_prefill);
  for (const LlmRequestTiming& r : samples.measured) EXPECT_GE(r.ttft_ns(), r.vision->total_ns());
  const LlmSummary summary = SummarizeLlm(samples.measured, samples.prompt_tokens, s);
  ASSERT_TRUE(summary.vision.has_value());
  EXPECT_GT(summary.vision->share_other, 0);
}

TEST(VlmScenario, AFailureNamesItsStage) {
  int64_t clock = 0;
  FakeVisionLlm fake(&clock);
  LlmSettings s = VisionSettings();
  s.images = {"a.png", "bad.png"};
  s.images_per_request = 1;
  auto samples = RunLlmScenario(fake, s, [&] { return clock; });
  EXPECT_FALSE(samples.error.ok());
  EXPECT_EQ(samples.failed_stage, "preprocess");
  EXPECT_NE(samples.error.message().find("bad.png"), std::string::npos);

  FakeVisionLlm failing(&clock);
  failing.fail_encode = true;
  samples = RunLlmScenario(failing, VisionSettings(), [&] { return clock; });
  EXPECT_FALSE(samples.error.ok());
  EXPECT_EQ(samples.failed_stage, "encode");
}

TEST(VlmScenario, TextRequestsHaveNoStages) {
  LlmRequestTiming text;
  text.start_ns = 0;
  text.first_token_ns = 10;
  const LlmSummary summary = SummarizeLlm({text}, 4, LlmSettings{});
  EXPECT_FALSE(summary.vision.has_value());
}

}  // namespace
}  // namespace edgebench
