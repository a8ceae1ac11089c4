// LLM metrics from per-token timestamps (docs/metrics.md): TTFT from the request's start to the
// first generated token, prefill included; TPOT the gaps between later tokens.
#pragma once

#include <optional>
#include <vector>

#include "core/llm_types.h"
#include "stats/summary.h"

namespace edgebench {

struct LlmSummary {
  int64_t requests = 0;
  LatencySummary ttft;            // over measured requests (percentiles need enough requests)
  LatencySummary tpot;            // over every decode gap of every measured request
  double prefill_tokens_per_s = 0;  // sequences x prompt tokens / mean TTFT
  double decode_tokens_per_s = 0;   // sequences x decode steps / decode time, all requests
  double per_sequence_tokens_per_s = 0;  // decode tokens/s seen by one sequence
};

LlmSummary SummarizeLlm(const std::vector<LlmRequestTiming>& measured, int64_t prompt_tokens,
                        int64_t sequences);

}  // namespace edgebench
