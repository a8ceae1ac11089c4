#include "load/case_kind.h"

#include "load/scenario_registry.h"
#include "load/scenario_spec.h"

namespace edgebench {

const char* ModeScenarioName(CaseKind mode) {
  switch (mode) {
    case CaseKind::kAgree: return "agree";
    case CaseKind::kAccuracy: return "accuracy";
    case CaseKind::kDrift: return "drift";
    default: return "";
  }
}

CaseKind CaseKindOf(const std::string& scenario) {
  for (CaseKind mode : {CaseKind::kAgree, CaseKind::kAccuracy, CaseKind::kDrift}) {
    if (scenario == ModeScenarioName(mode)) return mode;
  }
  auto parsed = ParseScenario(scenario);
  if (!parsed.ok()) return CaseKind::kUnknown;
  return parsed.value().entry->sessions == SessionKind::kLanguageModel ? CaseKind::kLanguageModel : CaseKind::kLoad;
}

ScenarioRecordRules RulesOfScenario(const std::string& scenario) {
  auto parsed = ParseScenario(scenario);
  if (!parsed.ok()) return ScenarioRecordRules{.judge_cv = false};
  return parsed.value().entry->rules;
}

}  // namespace edgebench
