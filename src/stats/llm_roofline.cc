#include "stats/llm_roofline.h"

#include <algorithm>
#include <cstdlib>

namespace edgebench {

LlmRoofline ComputeLlmRoofline(const LlmSessionInfo& session, const LlmSummary& summary,
                               const LlmSettings& settings, const std::vector<LlmRequestTiming>& measured,
                               int64_t prompt_tokens_run, const MachineLimits* limits,
                               const std::string& limits_missing, const std::string& target) {
  LlmRoofline r;
  if (!session.work) {
    r.omitted = session.work_unknown.empty() ? "the model's work per token was not counted" : session.work_unknown;
    return r;
  }
  // The machine limits are the CPU's: a device's requests are not set against them. An emulated
  // device (lavapipe) is the CPU running the device's code, no device's speed at all.
  if (const auto emulated = session.environment.find("emulated"); emulated != session.environment.end()) {
    r.omitted = "emulated device (" + emulated->second + "): its latencies are not a device's";
    return r;
  }
  if (const auto device = session.environment.find("device"); device != session.environment.end()) {
    r.omitted = "ran on " + device->second + ": the machine limits measure the CPU's memory, not this device's";
    return r;
  }
  if (settings.serving()) {
    r.omitted = "serving load: requests join at different depths and steps mix them; the roofline is "
                "computed for requests run one at a time or in lockstep";
    return r;
  }
  if (measured.empty()) {
    r.omitted = "no measured requests";
    return r;
  }
  // A session option as llama.cpp ran it, at least 1; `fallback` when the record does not have it.
  auto option = [&](const char* key, int fallback) {
    const auto it = session.effective_options.find(key);
    return it == session.effective_options.end() ? fallback : std::max(1, std::atoi(it->second.c_str()));
  };
  // The threads the session ran (a record from before they were kept: llama.cpp's default, every core).
  const int threads = option("threads", 1 << 20);
  const BandwidthMeasurement* bandwidth = limits ? limits->BandwidthFor(threads) : nullptr;
  if (!bandwidth || bandwidth->gb_per_s <= 0) {
    r.omitted = limits                   ? "the machine's limits hold no memory bandwidth"
                : limits_missing.empty() ? "the record has no machine limits (it predates them)"
                                         : limits_missing;
    return r;
  }
  const LlmWork& work = *session.work;
  r.approximate = work.approximate;
  r.bandwidth_gb_per_s = bandwidth->gb_per_s;
  r.bandwidth_threads = bandwidth->threads;
  r.bandwidth_source = "triad on " + std::to_string(bandwidth->threads) + " thread" +
                       (bandwidth->threads == 1 ? "" : "s") + " (" + bandwidth->method + ")";

  // A request of prompt P and G tokens decodes G - 1 steps; step k (k = 2..G) feeds token k - 1
  // at position P + k - 2 and attends P + k - 1 positions: P + G/2 on average.
  double depth_sum = 0, prompt_sum = 0;
  int64_t decoding = 0;
  for (const LlmRequestTiming& t : measured) {
    const double prompt = static_cast<double>(t.prompt_tokens > 0 ? t.prompt_tokens : prompt_tokens_run);
    prompt_sum += prompt;
    if (t.generated_tokens() < 2) continue;
    depth_sum += prompt + static_cast<double>(t.generated_tokens()) / 2.0;
    ++decoding;
  }
  r.decode_sequences = std::max<int64_t>(1, settings.sequences);
  const auto tpot = summary.tpot.Percentile(0.5);
  if (decoding == 0 || !tpot || *tpot <= 0) {
    r.decode_omitted = "no decode steps (single-token requests)";
  } else {
    r.decode_mean_depth = depth_sum / static_cast<double>(decoding);
    r.decode_step_bytes = work.DecodeStepBytes(r.decode_mean_depth, r.decode_sequences);
    r.decode_floor_ns = r.decode_step_bytes / r.bandwidth_gb_per_s;  // bytes / (bytes/ns)
    r.decode_step_ns = static_cast<double>(*tpot);
    r.decode_gb_per_s = r.decode_step_bytes / r.decode_step_ns;
    r.decode_share = r.decode_floor_ns / r.decode_step_ns;
    r.decode_intensity = static_cast<double>(r.decode_sequences) * work.TokenFlops(r.decode_mean_depth) /
                         r.decode_step_bytes;
  }

  // Prefill: a token at depth d attends d positions; over a prompt of P, P/2 on average.
  const double prompt_mean = prompt_sum / static_cast<double>(measured.size());
  r.prefill_flops_per_token = work.PrefillTokenFlops(prompt_mean / 2.0, prompt_mean);
  r.prefill_gflops = r.prefill_flops_per_token * summary.prefill_tokens_per_s / 1e9;
  const int64_t ubatch = option("ubatch", 512);
  const double micro_batch = std::min(static_cast<double>(ubatch), std::max(1.0, prompt_mean));
  r.prefill_intensity = micro_batch * r.prefill_flops_per_token /
                        (static_cast<double>(work.weight_bytes_per_token) +
                         micro_batch * prompt_mean / 2.0 * static_cast<double>(work.kv_bytes_per_position));
  const ComputePeak* peak = target.empty() || work.precision.empty() ? nullptr : limits->PeakFor(target, work.precision);
  if (peak && peak->gflops > 0) {
    r.compute_peak_gflops = peak->gflops;
    r.compute_peak_source =
        target + "'s " + peak->precision + " peak: " + ComputePeakSource(*peak, threads < (1 << 20) ? threads : 0);
  } else if (limits->published_peak_gflops > 0) {
    r.compute_peak_gflops = limits->published_peak_gflops;
    r.compute_peak_source = "published peak (--peak-gflops)";
  }
  if (r.compute_peak_gflops > 0) r.prefill_share = r.prefill_gflops / r.compute_peak_gflops;
  return r;
}

nlohmann::json LlmRooflineToJson(const LlmRoofline& r) {
  if (!r.computed()) return {{"omitted", r.omitted}};
  nlohmann::json j = {{"approximate", r.approximate},
                      {"bandwidth_gb_per_s", r.bandwidth_gb_per_s},
                      {"bandwidth_threads", r.bandwidth_threads},
                      {"bandwidth_source", r.bandwidth_source},
                      {"prefill_flops_per_token", r.prefill_flops_per_token},
                      {"prefill_gflops", r.prefill_gflops},
                      {"prefill_intensity", r.prefill_intensity}};
  if (r.decode_omitted.empty()) {
    j["decode_mean_depth"] = r.decode_mean_depth;
    j["decode_sequences"] = r.decode_sequences;
    j["decode_step_bytes"] = r.decode_step_bytes;
    j["decode_floor_ns"] = r.decode_floor_ns;
    j["decode_step_ns"] = r.decode_step_ns;
    j["decode_gb_per_s"] = r.decode_gb_per_s;
    j["decode_share"] = r.decode_share;
    j["decode_intensity"] = r.decode_intensity;
  } else {
    j["decode_omitted"] = r.decode_omitted;
  }
  if (r.compute_peak_gflops > 0) {
    j["compute_peak_gflops"] = r.compute_peak_gflops;
    j["compute_peak_source"] = r.compute_peak_source;
    j["prefill_share"] = r.prefill_share;
  } else {
    j["compute_peak"] = "not known: no compute peak measured for this runtime at the model's precision "
                        "(`devices --limits` measures it; or give --peak-gflops)";
  }
  return j;
}

}  // namespace edgebench
