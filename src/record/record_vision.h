// The vision-language parts of an llm record (docs/vlm.md) as JSON: a request's stages, the
// summary of them, and the settings that make a case vision-language. Kept apart from
// record_json.cc; text-only records carry none of these fields.
#pragma once

#include <nlohmann/json.hpp>

#include "core/llm_types.h"
#include "stats/vlm_summary.h"

namespace edgebench {

nlohmann::json VisionStagesToJson(const LlmVisionStages& stages);
LlmVisionStages VisionStagesFromJson(const nlohmann::json& json);
nlohmann::json VlmSummaryToJson(const VlmSummary& summary);
// Adds images, images_per_request and mmproj to an llm settings object when the case has images.
void AddVisionSettings(const LlmSettings& settings, nlohmann::json& json);
void ReadVisionSettings(const nlohmann::json& json, LlmSettings& settings);

}  // namespace edgebench
