// How close a language model's run came to the machine's limits (docs/roofline.md). A decode
// step reads at least the weights a token passes through and every sequence's KV cache at its
// depth, so it cannot take less than those bytes over the memory bandwidth: the floor. The share
// of the bandwidth roofline is that floor over the measured step (the median request's TPOT), the
// same as the bandwidth achieved over the bandwidth measured. Prefill is compute: its operations
// per second, and a share of a compute peak when one is known.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/llm_types.h"
#include "core/machine_limits.h"
#include "stats/llm_summary.h"

namespace edgebench {

struct LlmRoofline {
  std::string omitted;  // non-empty: why there is no roofline (nothing below is set)
  bool approximate = false;  // the counts are (a mixture of experts)
  // The memory roof.
  double bandwidth_gb_per_s = 0;
  int bandwidth_threads = 0;
  std::string bandwidth_source;  // "triad on 2 threads (best of 10 passes)"
  // Decode (bandwidth-bound).
  double decode_mean_depth = 0;  // positions a step attends, averaged over the steps of a request
  int64_t decode_sequences = 0;  // sequences one step decodes (lockstep)
  double decode_step_bytes = 0;  // weights read once + each sequence's KV at the mean depth
  double decode_floor_ns = 0;    // decode_step_bytes / bandwidth
  double decode_step_ns = 0;     // measured: the median request's TPOT (0: no decode steps)
  double decode_gb_per_s = 0;    // achieved: decode_step_bytes / decode_step_ns
  double decode_share = 0;       // decode_floor_ns / decode_step_ns
  double decode_intensity = 0;   // flops per byte of a step: each sequence's token flops / step bytes
  std::string decode_omitted;    // why there is no decode figure (single-token requests)
  // Prefill (compute-bound).
  double prefill_flops_per_token = 0;  // at the prompt's mean depth
  double prefill_gflops = 0;           // achieved: flops per token x prefill tokens/s
  // Flops per byte of one prefill micro-batch: its tokens' flops over the weights read once for
  // them and the KV at the mean depth.
  double prefill_intensity = 0;
  double compute_peak_gflops = 0;      // the runtime's measured peak, else a published one; 0: none known
  double prefill_share = 0;            // prefill_gflops / compute_peak_gflops
  std::string compute_peak_source;

  bool computed() const { return omitted.empty(); }
};

// `limits`: the record's machine limits (null: none, `limits_missing` says why). Serving load
// (requests joining at different depths) gets no roofline yet, and says so. `target`: the
// record's backend:device, whose measured peak at the model's precision prefill is held to
// (empty, or none measured: the published peak, if given).
LlmRoofline ComputeLlmRoofline(const LlmSessionInfo& session, const LlmSummary& summary,
                               const LlmSettings& settings, const std::vector<LlmRequestTiming>& measured,
                               int64_t prompt_tokens_run, const MachineLimits* limits,
                               const std::string& limits_missing, const std::string& target = "");

nlohmann::json LlmRooflineToJson(const LlmRoofline& roofline);

}  // namespace edgebench
