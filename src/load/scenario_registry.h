// Scenarios as entries of a registry: each in its own file, with everything the core needs to
// know about it (its form, how its parameter parses and prints, the streams its record reports,
// how it runs). A new scenario is its file (load/scenarios/NAME.cc, an entry) plus one line in
// scenario_registry.cc and one in CMakeLists.txt; planning, case keys, suites, the CLI's
// checks, workers, records, tables and reports take it from here. (single-stream, multi-stream,
// server, offline, soak and llm predate the registry and are still parsed in scenario_spec.cc.)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "load/scenario.h"
#include "load/scenario_spec.h"
#include "load/settings.h"

namespace edgebench {

struct ScenarioEntry {
  const char* family;   // "burst": the text before ':'
  const char* form;     // "burst:N[/PERIOD]", for help and error texts
  const char* summary;  // one line: what it issues and what it measures
  // The parameter after "family:" (has_parameter false when there is no ':'), into `spec`'s
  // fields; an error says what is wrong with it (ParseScenario adds the forms).
  Status (*parse)(const std::string& parameter, bool has_parameter, ScenarioSpec& spec);
  // The canonical text of a parsed spec, parameter included: what records and case keys carry.
  std::string (*canonical)(const ScenarioSpec& spec);
  // The streams (or workers) issuing its queries, for the record's load section.
  int (*streams)(const ScenarioSpec& spec, const RunSettings& settings);
  // The scenario, its settings validated already.
  std::unique_ptr<Scenario> (*make)(const ScenarioSpec& spec, EffectiveRunSettings settings);
};

// Every registered scenario, in registration order.
const std::vector<const ScenarioEntry*>& RegisteredScenarios();

// The entry of `family`; nullptr when none is registered.
const ScenarioEntry* FindRegisteredScenario(const std::string& family);

}  // namespace edgebench
