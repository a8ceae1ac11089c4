// A record finished, and read back, by the rules its scenario's registry entry declares
// (record/scenario_rules.h): what record/ cannot look up itself, since it depends on no scenario.
// Everything that finishes or reads records above load/ goes through these.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/record.h"
#include "record/record_finish.h"
#include "record/record_json.h"
#include "record/scenario_rules.h"

namespace edgebench {

// The rules and streams of `scenario` (a record's canonical text) under `settings`; nullopt for a
// mode's text or any text no scenario parses.
std::optional<ScenarioRules> ScenarioRulesOf(const std::string& scenario, const RunSettings& settings);

// FinishRecordByRules with the rules of the record's scenario.
void FinishRecord(Record& record);

// RecordFromJsonByRules with the registry's rules: a stored record finished as it is read.
Result<Record> RecordFromJson(const nlohmann::json& json);

}  // namespace edgebench
