// The record's `accuracy` section (docs/records.md): its JSON form, and the figures derived
// from its per-image answers (top-1 and top-5 with Wilson intervals, per class, time summaries),
// recomputed by FinishRecord so a stored record is summarised by the reader's rules.
#pragma once

#include <nlohmann/json.hpp>

#include "record/record.h"

namespace edgebench {

nlohmann::json AccuracyToJson(const AccuracyRecord& accuracy);
// The error names what is missing or inconsistent (per-image series of different lengths).
Result<AccuracyRecord> AccuracyFromJson(const nlohmann::json& json);

// Fills the derived fields from the raw per-image ones.
void FinishAccuracy(AccuracyRecord& accuracy);

}  // namespace edgebench
