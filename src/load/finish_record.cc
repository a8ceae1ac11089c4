#include "load/finish_record.h"

#include <cmath>

#include "load/scenario_registry.h"
#include "load/scenario_spec.h"

namespace edgebench {

std::optional<ScenarioRules> ScenarioRulesOf(const std::string& scenario, const RunSettings& settings) {
  auto spec = ParseScenario(scenario);
  if (!spec.ok()) return std::nullopt;
  ScenarioRules rules{spec.value().entry->rules, spec.value().entry->streams(spec.value(), settings)};
  if (rules.rules.camera && spec.value().fps > 0) rules.frame_period_ns = std::llround(1e9 / spec.value().fps);
  return rules;
}

void FinishRecord(Record& record) {
  FinishRecordByRules(record, ScenarioRulesOf(record.scenario, record.effective_settings));
}

Result<Record> RecordFromJson(const nlohmann::json& json) { return RecordFromJsonByRules(json, ScenarioRulesOf); }

}  // namespace edgebench
