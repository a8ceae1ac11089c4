#include "load/scenario_registry.h"

#include "load/scenarios/burst.h"

namespace edgebench {

const std::vector<const ScenarioEntry*>& RegisteredScenarios() {
  // One line per scenario.
  static const std::vector<const ScenarioEntry*> entries = {
      &kBurstScenario,
  };
  return entries;
}

const ScenarioEntry* FindRegisteredScenario(const std::string& family) {
  for (const ScenarioEntry* entry : RegisteredScenarios()) {
    if (family == entry->family) return entry;
  }
  return nullptr;
}

}  // namespace edgebench
