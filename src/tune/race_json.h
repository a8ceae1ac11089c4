// A race's settings and its result as JSON: the settings travel in every record of the race's
// cases (record/tune_tag.h) and are read back to replay it (tune/race_records.h); the result is
// what `edgebench tune --json` and the HTML report show.
#pragma once

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "tune/race.h"

namespace edgebench {

nlohmann::json RaceSettingsToJson(const RaceSettings& settings);
// An error names what is missing or malformed.
Result<RaceSettings> RaceSettingsFromJson(const nlohmann::json& json);

nlohmann::json RaceResultToJson(const RaceResult& result);

}  // namespace edgebench
