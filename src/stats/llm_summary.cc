#include "stats/llm_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace edgebench {

bool MeetsSlo(const LlmRequestTiming& r, const LlmSlo& slo) {
  if (slo.ttft_ns > 0 && r.ttft_ns() > slo.ttft_ns) return false;
  const std::optional<double> tpot = r.tpot_ns();
  if (slo.tpot_ns > 0 && tpot && *tpot > static_cast<double>(slo.tpot_ns)) return false;
  return true;
}

LlmSummary SummarizeLlm(const std::vector<LlmRequestTiming>& measured, int64_t prompt_tokens,
                        const LlmSettings& settings) {
  LlmSummary s;
  s.requests = static_cast<int64_t>(measured.size());
  // A lockstep request is `sequences` sequences timed as one; a serving request is one.
  const int64_t sequences = settings.serving() ? 1 : std::max<int64_t>(settings.sequences, 1);
  std::vector<int64_t> ttft, tpot, e2e, gaps;
  int64_t ttft_total = 0, decode_total = 0, steps = 0, prompt_total = 0;
  int64_t first_start = std::numeric_limits<int64_t>::max();
  int64_t last_end = std::numeric_limits<int64_t>::min();
  for (const LlmRequestTiming& r : measured) {
    ttft.push_back(r.ttft_ns());
    // A vision-language request's prefill is its image and text prefill: its TTFT also holds
    // the images' pre-processing and encode, which are no prompt tokens' decode.
    ttft_total += r.vision ? r.vision->image_prefill_ns + r.vision->text_prefill_ns : r.ttft_ns();
    e2e.push_back(r.e2e_ns());
    if (const auto t = r.tpot_ns()) tpot.push_back(std::llround(*t));
    for (int64_t g : r.itl_gaps_ns()) gaps.push_back(g);
    decode_total += r.end_ns() - r.first_token_ns;
    steps += static_cast<int64_t>(r.token_ns.size());
    prompt_total += r.prompt_tokens > 0 ? r.prompt_tokens : prompt_tokens;
    first_start = std::min(first_start, r.start_ns);
    last_end = std::max(last_end, r.end_ns());
    if (settings.slo.set() && MeetsSlo(r, settings.slo)) ++s.slo_met;
  }
  s.wall_ns = measured.empty() ? 0 : last_end - first_start;
  s.ttft = Summarize(ttft, s.wall_ns);
  s.tpot = Summarize(tpot, s.wall_ns);
  s.e2e = Summarize(e2e, s.wall_ns);
  s.itl = Summarize(gaps, s.wall_ns);
  s.output_tokens = steps * sequences;
  // Under serving load TTFT holds queueing and other requests' decode steps: not a prefill speed.
  if (ttft_total > 0 && !settings.serving()) {
    s.prefill_tokens_per_s = static_cast<double>(sequences * prompt_total) * 1e9 / static_cast<double>(ttft_total);
  }
  if (decode_total > 0) {
    s.per_sequence_tokens_per_s = static_cast<double>(steps) * 1e9 / static_cast<double>(decode_total);
    s.decode_tokens_per_s = s.per_sequence_tokens_per_s * static_cast<double>(sequences);
  }
  if (s.wall_ns > 0) {
    s.aggregate_tokens_per_s = static_cast<double>(s.output_tokens) * 1e9 / static_cast<double>(s.wall_ns);
    s.goodput_rps = static_cast<double>(s.slo_met) * 1e9 / static_cast<double>(s.wall_ns);
  }
  s.vision = SummarizeVlm(measured, s.wall_ns);
  return s;
}

}  // namespace edgebench
