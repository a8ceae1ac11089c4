// The report's vision-language section (docs/report.md, docs/vlm.md): for every llm case run
// with images, where its TTFT went (pre-processing, encode, image prefill, text prefill, and
// waiting under load) as shares of the summed TTFT, and each stage's median, the image tokens
// per image and the device the vision tower ran on. Null when no record has images.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"
#include "report/html/report_labels.h"

namespace edgebench {

// {"stages": [names], "cases": [{label, shares: [per stage], p50_ms: [per stage], image_tokens,
// images_per_request, ttft_p50_ms, image_part_p50_ms, text_part_p50_ms, vision_device}]}.
nlohmann::json VlmSection(const std::vector<Record>& records, const CaseLabels& labels);

}  // namespace edgebench
