#include "record/record_vision.h"

namespace edgebench {

using json = nlohmann::json;

json VisionStagesToJson(const LlmVisionStages& v) {
  return {{"preprocess_ns", v.preprocess_ns}, {"encode_ns", v.encode_ns},
          {"image_prefill_ns", v.image_prefill_ns}, {"text_prefill_ns", v.text_prefill_ns},
          {"images", v.images}, {"image_tokens", v.image_tokens}, {"text_tokens", v.text_tokens}};
}

LlmVisionStages VisionStagesFromJson(const json& j) {
  LlmVisionStages v;
  v.preprocess_ns = j.at("preprocess_ns").get<int64_t>();
  v.encode_ns = j.at("encode_ns").get<int64_t>();
  v.image_prefill_ns = j.at("image_prefill_ns").get<int64_t>();
  v.text_prefill_ns = j.at("text_prefill_ns").get<int64_t>();
  v.images = j.at("images").get<int64_t>();
  v.image_tokens = j.at("image_tokens").get<int64_t>();
  v.text_tokens = j.at("text_tokens").get<int64_t>();
  return v;
}

namespace {

json Latency(const LatencySummary& x) {
  json p = json::object();
  for (const auto& [q, v] : x.percentiles) p[PercentileName(q)] = v ? json(*v) : json(nullptr);
  return {{"mean_ns", x.mean_ns}, {"percentiles_ns", p}};
}

}  // namespace

json VlmSummaryToJson(const VlmSummary& s) {
  return {{"requests", s.requests},
          {"images", s.images},
          {"preprocess", Latency(s.preprocess)},
          {"encode", Latency(s.encode)},
          {"encode_per_image", Latency(s.encode_per_image)},
          {"image_prefill", Latency(s.image_prefill)},
          {"text_prefill", Latency(s.text_prefill)},
          {"ttft_image_part", Latency(s.ttft_image_part)},
          {"ttft_other", Latency(s.ttft_other)},
          {"image_tokens_per_image", s.image_tokens_per_image},
          {"text_tokens", s.text_tokens},
          {"ttft_shares",
           {{"preprocess", s.share_preprocess}, {"encode", s.share_encode}, {"image_prefill", s.share_image_prefill},
            {"text_prefill", s.share_text_prefill}, {"other", s.share_other}}}};
}

void AddVisionSettings(const LlmSettings& s, json& j) {
  if (!s.vision()) return;
  j["images"] = s.images;
  j["images_per_request"] = s.images_per_request;
  j["mmproj"] = s.mmproj;
}

void ReadVisionSettings(const json& j, LlmSettings& s) {
  if (!j.contains("images")) return;
  s.images = j.at("images").get<std::vector<std::string>>();
  s.images_per_request = j.at("images_per_request").get<int64_t>();
  s.mmproj = j.at("mmproj").get<std::string>();
}

}  // namespace edgebench
