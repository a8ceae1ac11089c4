// What a case's or a record's scenario text stands for, read through the scenario registry
// (load/scenario_registry.h): a load scenario, a language model's requests, or one of the modes
// that compare or evaluate (agree, accuracy, drift), whose names are defined here once. Code
// outside the registry asks these questions instead of comparing scenario names.
#pragma once

#include <string>

#include "record/scenario_rules.h"

namespace edgebench {

enum class CaseKind {
  kLoad,           // a tensor scenario of the registry: single-stream, multi-stream, server, ...
  kLanguageModel,  // llm
  kAgree,
  kAccuracy,
  kDrift,
  kUnknown,        // text that names neither a scenario nor a mode
};

CaseKind CaseKindOf(const std::string& scenario);

// The scenario text a mode's cases and records carry: "agree", "accuracy", "drift".
const char* ModeScenarioName(CaseKind mode);

// The record rules its registry entry declares; none set for a mode's text or unknown text.
ScenarioRecordRules RulesOfScenario(const std::string& scenario);

}  // namespace edgebench
