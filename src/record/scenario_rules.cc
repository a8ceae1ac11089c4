#include "record/scenario_rules.h"

#include <atomic>

namespace edgebench {
namespace {

std::atomic<ScenarioRulesLookup> installed_lookup{nullptr};

}  // namespace

void InstallScenarioRulesLookup(ScenarioRulesLookup lookup) { installed_lookup.store(lookup); }

std::optional<ScenarioRules> LookUpScenarioRules(const std::string& scenario, const RunSettings& settings) {
  const ScenarioRulesLookup lookup = installed_lookup.load();
  return lookup ? lookup(scenario, settings) : std::nullopt;
}

}  // namespace edgebench
