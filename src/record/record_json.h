// A record's JSON form both ways (docs/records.md), with the settings' forms it shares with case
// descriptions. The reader keeps older schemas readable and finishes what it read
// (record/record_finish.h), so a stored record's derived figures and verdict are recomputed.
#pragma once

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/record.h"
#include "record/scenario_rules.h"
#include "record/summary_json.h"

namespace edgebench {

nlohmann::json RecordToJson(const Record& record);
// The settings' JSON forms, shared by records and case descriptions. FromJson throws
// nlohmann::json::exception naming a missing field.
nlohmann::json RunSettingsToJson(const RunSettings& settings);
nlohmann::json SummaryToJson(const LatencySummary& summary);
RunSettings RunSettingsFromJson(const nlohmann::json& json);
nlohmann::json LlmSettingsToJson(const LlmSettings& settings);
LlmSettings LlmSettingsFromJson(const nlohmann::json& json);
// An error names the first field that is missing or of the wrong type. The record is finished
// (FinishRecordByRules) by the rules `rules` gives its scenario; load/finish_record.h's
// RecordFromJson hands it the scenario registry's.
Result<Record> RecordFromJsonByRules(const nlohmann::json& json, ScenarioRulesLookup rules);

}  // namespace edgebench
