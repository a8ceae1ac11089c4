#include "stats/vlm_summary.h"

namespace edgebench {

std::optional<VlmSummary> SummarizeVlm(const std::vector<LlmRequestTiming>& measured, int64_t wall_ns) {
  std::vector<int64_t> preprocess, encode, per_image, image_prefill, text_prefill, image_part, other;
  double ttft_total = 0, pre_total = 0, enc_total = 0, img_total = 0, txt_total = 0, other_total = 0;
  double tokens_per_image = 0, text_tokens = 0;
  VlmSummary s;
  for (const LlmRequestTiming& r : measured) {
    if (!r.vision) continue;
    const LlmVisionStages& v = *r.vision;
    ++s.requests;
    s.images += v.images;
    preprocess.push_back(v.preprocess_ns);
    encode.push_back(v.encode_ns);
    if (v.images > 0) per_image.push_back(v.encode_ns / v.images);
    image_prefill.push_back(v.image_prefill_ns);
    text_prefill.push_back(v.text_prefill_ns);
    image_part.push_back(v.image_part_ns());
    other.push_back(r.ttft_ns() - v.total_ns());
    ttft_total += static_cast<double>(r.ttft_ns());
    pre_total += static_cast<double>(v.preprocess_ns);
    enc_total += static_cast<double>(v.encode_ns);
    img_total += static_cast<double>(v.image_prefill_ns);
    txt_total += static_cast<double>(v.text_prefill_ns);
    other_total += static_cast<double>(r.ttft_ns() - v.total_ns());
    if (v.images > 0) tokens_per_image += static_cast<double>(v.image_tokens) / static_cast<double>(v.images);
    text_tokens += static_cast<double>(v.text_tokens);
  }
  if (s.requests == 0) return std::nullopt;
  s.preprocess = Summarize(preprocess, wall_ns);
  s.encode = Summarize(encode, wall_ns);
  s.encode_per_image = Summarize(per_image, wall_ns);
  s.image_prefill = Summarize(image_prefill, wall_ns);
  s.text_prefill = Summarize(text_prefill, wall_ns);
  s.ttft_image_part = Summarize(image_part, wall_ns);
  s.ttft_other = Summarize(other, wall_ns);
  s.image_tokens_per_image = tokens_per_image / static_cast<double>(s.requests);
  s.text_tokens = text_tokens / static_cast<double>(s.requests);
  if (ttft_total > 0) {
    s.share_preprocess = pre_total / ttft_total;
    s.share_encode = enc_total / ttft_total;
    s.share_image_prefill = img_total / ttft_total;
    s.share_text_prefill = txt_total / ttft_total;
    s.share_other = other_total / ttft_total;
  }
  return s;
}

}  // namespace edgebench
