// Vision-language requests' stages (docs/vlm.md), from each request's LlmVisionStages:
// percentiles across requests of pre-processing, encode, image prefill and text prefill, TTFT
// split into its image part (pre-processing + encode + image prefill), its text part (text
// prefill) and the rest (queueing and other requests' decode steps under load), and the image
// tokens per image.
#pragma once

#include <optional>
#include <vector>

#include "core/llm_types.h"
#include "stats/summary.h"

namespace edgebench {

struct VlmSummary {
  int64_t requests = 0;
  int64_t images = 0;
  LatencySummary preprocess;
  LatencySummary encode;         // per request: every image of it
  LatencySummary encode_per_image;  // a request's encode / its images
  LatencySummary image_prefill;
  LatencySummary text_prefill;
  LatencySummary ttft_image_part;   // pre-processing + encode + image prefill
  LatencySummary ttft_other;        // TTFT - the four stages: waiting (queueing, others' steps)
  double image_tokens_per_image = 0;  // mean over requests
  double text_tokens = 0;             // mean per request
  // Shares of the total TTFT over measured requests (sum of a stage / sum of TTFT).
  double share_preprocess = 0, share_encode = 0, share_image_prefill = 0, share_text_prefill = 0, share_other = 0;
};

// Absent when no measured request has stages (a text-only run).
std::optional<VlmSummary> SummarizeVlm(const std::vector<LlmRequestTiming>& measured, int64_t wall_ns);

}  // namespace edgebench
