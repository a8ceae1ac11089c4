#include "report/html/report_vlm.h"

#include "report/html/report_labels.h"

namespace edgebench {

using nlohmann::json;

json VlmSection(const std::vector<Record>& records, const CaseLabels& labels) {
  auto ms = [](const std::optional<int64_t>& ns) { return ns ? json(static_cast<double>(*ns) / 1e6) : json(nullptr); };
  json cases = json::array();
  for (const Record& r : records) {
    if (r.status != CaseStatus::kOk || !r.llm || !r.llm->summary.vision) continue;
    const VlmSummary& v = *r.llm->summary.vision;
    cases.push_back(
        {{"label", labels(r)},
         {"shares", {v.share_preprocess, v.share_encode, v.share_image_prefill, v.share_text_prefill, v.share_other}},
         {"p50_ms",
          {ms(v.preprocess.Percentile(0.5)), ms(v.encode.Percentile(0.5)), ms(v.image_prefill.Percentile(0.5)),
           ms(v.text_prefill.Percentile(0.5)), ms(v.ttft_other.Percentile(0.5))}},
         {"image_tokens", v.image_tokens_per_image},
         {"images_per_request", r.llm->settings.images_per_request},
         {"ttft_p50_ms", ms(r.llm->summary.ttft.Percentile(0.5))},
         {"image_part_p50_ms", ms(v.ttft_image_part.Percentile(0.5))},
         {"text_part_p50_ms", ms(v.text_prefill.Percentile(0.5))},
         {"vision_device", r.llm->session.vision_device}});
  }
  if (cases.empty()) return nullptr;
  return {{"stages", {"preprocess", "encode", "image prefill", "text prefill", "waiting"}}, {"cases", cases}};
}

}  // namespace edgebench
