// Scenarios as entries of a registry: each in its own file under load/scenarios/, with everything
// the core needs to know about it: its form, how its parameter parses and prints, the settings
// it uses, the sessions and streams it needs, the settings it runs with, how it runs, and the
// rules its record is summarized and judged by. A new scenario is its file (an entry) plus one
// line in scenario_registry.cc and one in CMakeLists.txt; planning, case keys, suites, the
// CLI's checks, workers, records, tables and reports take it from here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/llm_types.h"
#include "core/status.h"
#include "record/scenario_rules.h"
#include "load/scenario.h"
#include "load/scenario_spec.h"
#include "load/settings.h"

namespace edgebench {

struct ScenarioEntry {
  const char* family;   // "burst": the text before ':'
  const char* form;     // "burst:N[/PERIOD]", for help and error texts
  const char* summary;  // one line: what it issues and what it measures
  SessionKind sessions;  // tensor sessions (load scenarios) or a language model's
  // The load settings (their suite keys, space-separated) that apply to it beyond those every
  // scenario takes: a setting given explicitly that no listed scenario uses is refused.
  const char* settings;
  ScenarioRecordRules rules;
  // The parameter after "family:" (has_parameter false when there is no ':'), into `spec`'s
  // fields; an error says what is wrong with it (ParseScenario adds the forms).
  Status (*parse)(const std::string& parameter, bool has_parameter, ScenarioSpec& spec);
  // The canonical text of a parsed spec, parameter included: what records and case keys carry.
  std::string (*canonical)(const ScenarioSpec& spec);
  // The streams (or workers) issuing its queries, for the record's load section.
  int (*streams)(const ScenarioSpec& spec, const RunSettings& settings);
  // The settings it runs with, from those requested, before validation; nullptr: as requested.
  void (*effective)(const ScenarioSpec& spec, RunSettings& settings);
  // The scenario; tensor scenarios get their settings validated already, the language model's
  // its LLM settings (it checks them).
  Result<std::unique_ptr<Scenario>> (*make)(const ScenarioSpec& spec, EffectiveRunSettings settings,
                                            const LlmSettings& llm);
};

// Every registered scenario, in registration order.
const std::vector<const ScenarioEntry*>& RegisteredScenarios();

// The entry of `family`; nullptr when none is registered.
const ScenarioEntry* FindRegisteredScenario(const std::string& family);

// Whether `setting` (a suite key, e.g. "concurrency") is one of the entry's own settings.
bool ScenarioUsesSetting(const ScenarioEntry& entry, const std::string& setting);

// Every form a scenario may take, in registration order, for help and error texts.
std::string ScenarioForms();

// A scenario's text parsed by its registry entry; an error names the text and the forms it may
// take.
Result<ScenarioSpec> ParseScenario(const std::string& text);

}  // namespace edgebench
