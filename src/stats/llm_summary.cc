#include "stats/llm_summary.h"

namespace edgebench {

LlmSummary SummarizeLlm(const std::vector<LlmRequestTiming>& measured, int64_t prompt_tokens,
                        int64_t sequences) {
  LlmSummary s;
  s.requests = static_cast<int64_t>(measured.size());
  std::vector<int64_t> ttft, gaps;
  int64_t ttft_total = 0, decode_total = 0, steps = 0;
  for (const LlmRequestTiming& r : measured) {
    ttft.push_back(r.ttft_ns());
    ttft_total += r.ttft_ns();
    for (int64_t g : r.tpot_gaps_ns()) {
      gaps.push_back(g);
      decode_total += g;
      ++steps;
    }
  }
  s.ttft = Summarize(ttft, ttft_total);
  s.tpot = Summarize(gaps, decode_total);
  if (ttft_total > 0) {
    s.prefill_tokens_per_s = static_cast<double>(sequences * prompt_tokens * s.requests) * 1e9 /
                             static_cast<double>(ttft_total);
  }
  if (decode_total > 0) {
    s.per_sequence_tokens_per_s = static_cast<double>(steps) * 1e9 / static_cast<double>(decode_total);
    s.decode_tokens_per_s = s.per_sequence_tokens_per_s * static_cast<double>(sequences);
  }
  return s;
}

}  // namespace edgebench
