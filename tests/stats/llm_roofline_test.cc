// The LLM roofline from given counts, timings and limits: the figures by hand, and each reason it
// is omitted.
#include "stats/llm_roofline.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

LlmSessionInfo LlmSessionOfTheTest() {
  LlmSessionInfo s;
  LlmWork w;
  w.weight_bytes_per_token = 1'000'000;
  w.kv_bytes_per_position = 1'000;
  w.matmul_weights = 400'000;
  w.attention_flops_per_position = 100;
  s.work = w;
  s.effective_options = {{"threads", "2"}, {"ubatch", "64"}};
  return s;
}

MachineLimits LlmMachineLimits() {
  MachineLimits m;
  BandwidthMeasurement one, all;
  one.gb_per_s = 5;
  one.threads = 1;
  all.gb_per_s = 10;
  all.threads = 2;
  m.bandwidth_one_thread = one;
  m.bandwidth_all_threads = all;
  return m;
}

// Requests of 100 prompt tokens and 11 tokens, TPOT 200 us, TTFT 10 ms.
std::vector<LlmRequestTiming> Requests(int count) {
  std::vector<LlmRequestTiming> out;
  for (int i = 0; i < count; ++i) {
    LlmRequestTiming t;
    t.start_ns = i * 1'000'000'000LL;
    t.first_token_ns = t.start_ns + 10'000'000;
    for (int k = 1; k <= 10; ++k) t.token_ns.push_back(t.first_token_ns + k * 200'000);
    t.prompt_tokens = 100;
    out.push_back(t);
  }
  return out;
}

TEST(LlmRoofline, DecodeIsItsBytesOverTheBandwidthAgainstTheMedianTpot) {
  LlmSettings settings;
  settings.prompt_tokens = 100;
  settings.gen_tokens = 11;
  const auto measured = Requests(3);
  const LlmSummary summary = SummarizeLlm(measured, 100, settings);
  const MachineLimits limits = LlmMachineLimits();
  const LlmRoofline r = ComputeLlmRoofline(LlmSessionOfTheTest(), summary, settings, measured, 100, &limits, "");
  ASSERT_TRUE(r.computed()) << r.omitted;
  ASSERT_TRUE(r.decode_omitted.empty());
  EXPECT_EQ(r.bandwidth_threads, 2);  // the session's threads pick the all-cores figure
  EXPECT_DOUBLE_EQ(r.decode_mean_depth, 100 + 11 / 2.0);
  EXPECT_DOUBLE_EQ(r.decode_step_bytes, 1'000'000 + 105.5 * 1'000);
  EXPECT_DOUBLE_EQ(r.decode_floor_ns, 1'105'500 / 10.0);
  EXPECT_DOUBLE_EQ(r.decode_step_ns, 200'000);
  EXPECT_DOUBLE_EQ(r.decode_share, 110'550.0 / 200'000);
  EXPECT_DOUBLE_EQ(r.decode_gb_per_s, 1'105'500 / 200'000.0);
  // Prefill: 100 tokens in 10 ms, each 2 x 400k + 50 x 100 flops.
  EXPECT_DOUBLE_EQ(r.prefill_flops_per_token, 800'000 + 50 * 100);
  EXPECT_NEAR(r.prefill_gflops, 805'000.0 * 10'000 / 1e9, 1e-9);
  EXPECT_DOUBLE_EQ(r.prefill_intensity, 64 * 805'000.0 / (1'000'000 + 64 * 50 * 1'000.0));
  EXPECT_EQ(r.compute_peak_gflops, 0);
}

TEST(LlmRoofline, OneThreadIsHeldToTheOneThreadBandwidthAndAPublishedPeakGivesPrefillAShare) {
  LlmSettings settings;
  const auto measured = Requests(3);
  LlmSessionInfo session = LlmSessionOfTheTest();
  session.effective_options["threads"] = "1";
  MachineLimits limits = LlmMachineLimits();
  limits.published_peak_gflops = 100;
  const LlmRoofline r =
      ComputeLlmRoofline(session, SummarizeLlm(measured, 100, settings), settings, measured, 100, &limits, "");
  EXPECT_EQ(r.bandwidth_gb_per_s, 5);
  EXPECT_NEAR(r.prefill_share, r.prefill_gflops / 100, 1e-12);
}

// llama.cpp's own measured peak at the model's precision wins over a published one; at another
// precision, or for another target, it does not apply.
TEST(LlmRoofline, PrefillIsHeldToTheRuntimesOwnPeakAtTheModelsPrecision) {
  LlmSettings settings;
  const auto measured = Requests(3);
  LlmSessionInfo session = LlmSessionOfTheTest();
  session.work->precision = "int8";
  MachineLimits limits = LlmMachineLimits();
  limits.published_peak_gflops = 100;
  ComputePeak peak;
  peak.target = "llamacpp:cpu";
  peak.precision = "int8";
  peak.gflops = 400;
  peak.threads = 2;
  peak.passes = 5;
  peak.method = "ggml_mul_mat Q8_0 x Q8_0 [1024x1024] x [1024x1024] through the runtime";
  limits.compute_peaks = {peak};
  const LlmSummary summary = SummarizeLlm(measured, 100, settings);
  const LlmRoofline own = ComputeLlmRoofline(session, summary, settings, measured, 100, &limits, "", "llamacpp:cpu");
  EXPECT_EQ(own.compute_peak_gflops, 400);
  EXPECT_NE(own.compute_peak_source.find("llamacpp:cpu's int8 peak: ggml_mul_mat Q8_0"), std::string::npos)
      << own.compute_peak_source;
  EXPECT_NEAR(own.prefill_share, own.prefill_gflops / 400, 1e-12);
  session.work->precision = "fp32";
  const LlmRoofline other = ComputeLlmRoofline(session, summary, settings, measured, 100, &limits, "", "llamacpp:cpu");
  EXPECT_EQ(other.compute_peak_gflops, 100) << "no fp32 peak measured: the published one";
  EXPECT_EQ(ComputeLlmRoofline(session, summary, settings, measured, 100, &limits, "", "").compute_peak_gflops, 100);
}

TEST(LlmRoofline, IsOmittedWithTheReason) {
  LlmSettings settings;
  const auto measured = Requests(3);
  const LlmSummary summary = SummarizeLlm(measured, 100, settings);
  const MachineLimits limits = LlmMachineLimits();
  EXPECT_EQ(ComputeLlmRoofline(LlmSessionOfTheTest(), summary, settings, measured, 100, nullptr, "never measured here").omitted,
            "never measured here");
  LlmSessionInfo unknown;
  unknown.work_unknown = "split model";
  EXPECT_EQ(ComputeLlmRoofline(unknown, summary, settings, measured, 100, &limits, "").omitted, "split model");
  LlmSettings serving = settings;
  serving.concurrency = 4;
  EXPECT_NE(ComputeLlmRoofline(LlmSessionOfTheTest(), summary, serving, measured, 100, &limits, "").omitted.find("serving"),
            std::string::npos);
  MachineLimits empty;
  EXPECT_NE(ComputeLlmRoofline(LlmSessionOfTheTest(), summary, settings, measured, 100, &empty, "").omitted.find("bandwidth"),
            std::string::npos);
  // Single-token requests: no decode figure, prefill still there.
  std::vector<LlmRequestTiming> single = measured;
  for (auto& t : single) t.token_ns.clear();
  const LlmRoofline r = ComputeLlmRoofline(LlmSessionOfTheTest(), SummarizeLlm(single, 100, settings), settings, single, 100, &limits, "");
  ASSERT_TRUE(r.computed());
  EXPECT_FALSE(r.decode_omitted.empty());
  EXPECT_GT(r.prefill_gflops, 0);
}

// The machine limits are the CPU's: a request on a device (lavapipe's Vulkan, a real GPU) gets no
// share of them, and an emulated device says it is not a device's speed.
TEST(LlmRoofline, ADevicesRequestsGetNoShareOfTheCpusLimits) {
  LlmSettings settings;
  const auto measured = Requests(3);
  const MachineLimits limits = LlmMachineLimits();
  LlmSessionInfo gpu = LlmSessionOfTheTest();
  gpu.environment["device"] = "CUDA0: NVIDIA Jetson Orin";
  const LlmRoofline on_gpu =
      ComputeLlmRoofline(gpu, SummarizeLlm(measured, 100, settings), settings, measured, 100, &limits, "");
  EXPECT_EQ(on_gpu.decode_share, 0);
  EXPECT_NE(on_gpu.omitted.find("CUDA0: NVIDIA Jetson Orin"), std::string::npos) << on_gpu.omitted;
  LlmSessionInfo lavapipe = gpu;
  lavapipe.environment["emulated"] = "lavapipe, Mesa's Vulkan on the CPU";
  const LlmRoofline emulated =
      ComputeLlmRoofline(lavapipe, SummarizeLlm(measured, 100, settings), settings, measured, 100, &limits, "");
  EXPECT_EQ(emulated.decode_share, 0);
  EXPECT_NE(emulated.omitted.find("emulated device (lavapipe"), std::string::npos) << emulated.omitted;
}

}  // namespace
}  // namespace edgebench
