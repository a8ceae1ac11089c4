// The record's `load` section (docs/records.md, "load"): derived from the samples and the
// scenario (SummarizeLoad), judged by the load scenarios' rules (JudgeLoad), and its JSON. Kept
// apart from the record's code: its entry in the section table (record_sections.cc) calls these.
#pragma once

#include <nlohmann/json.hpp>

#include "record/scenario_rules.h"
#include "record/record.h"

namespace edgebench {

LoadRecord SummarizeLoad(const Record& r, const ScenarioRules& scenario);

// Adds the load scenarios' invalid reasons to r.invalid_reasons; r.load must be set.
void JudgeLoad(const Record& r, const ScenarioRules& scenario, std::vector<std::string>& reasons);

nlohmann::json LoadToJson(const LoadRecord& l, const Record& r);

// The parts of the load section that the samples do not give (FinishRecord derives the rest).
void StoredLoadFromJson(const nlohmann::json& j, Record& r);

}  // namespace edgebench
