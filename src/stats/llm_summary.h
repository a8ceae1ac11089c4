// LLM metrics from per-token timestamps (docs/metrics.md). Per request: TTFT from the request's
// start (its scheduled arrival under --rate, so queueing counts) to the first token; TPOT =
// (E2E - TTFT) / (tokens - 1), the per-request definition of MLPerf LoadGen, genai-perf and
// vLLM; E2E from start to the last token. Apart: ITL, every gap between consecutive tokens
// pooled over requests (what vLLM calls ITL). Percentiles of TTFT, TPOT and E2E are across
// requests.
#pragma once

#include <vector>

#include "core/llm_types.h"
#include "stats/summary.h"
#include "stats/vlm_summary.h"

namespace edgebench {

struct LlmSummary {
  int64_t requests = 0;
  LatencySummary ttft;  // across measured requests (percentiles need enough requests)
  LatencySummary tpot;  // per-request TPOT (rounded to ns), requests of 2 or more tokens
  LatencySummary e2e;   // across measured requests
  LatencySummary itl;   // every gap between tokens of every measured request, pooled
  int64_t wall_ns = 0;        // measured phase: first request's start to the last token
  int64_t output_tokens = 0;  // tokens generated after the first, all requests and sequences
  double prefill_tokens_per_s = 0;  // lockstep runs only: sequences x prompt tokens / TTFT
                                    // (vision-language: / image and text prefill time)
  double decode_tokens_per_s = 0;   // sequences x per-sequence rate (decode time only)
  double per_sequence_tokens_per_s = 0;  // tokens after the first / (E2E - TTFT), one sequence
  double aggregate_tokens_per_s = 0;     // output_tokens / wall_ns
  int64_t slo_met = 0;       // requests meeting the SLO (when one is set)
  double goodput_rps = 0;    // slo_met / wall_ns, requests/s
  std::optional<VlmSummary> vision;  // vision-language requests: their stages
};

// Whether one request meets `slo`: TTFT and TPOT at most their bounds (a single-token request
// has no TPOT and meets any TPOT bound).
bool MeetsSlo(const LlmRequestTiming& request, const LlmSlo& slo);

// `prompt_tokens` is the prompt length of requests that do not carry their own (older
// records); `settings` gives sequences (lockstep), whether the run was serving load, and the
// SLO.
LlmSummary SummarizeLlm(const std::vector<LlmRequestTiming>& measured, int64_t prompt_tokens,
                        const LlmSettings& settings);

}  // namespace edgebench
