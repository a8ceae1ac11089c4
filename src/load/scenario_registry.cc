#include "load/scenario_registry.h"

#include <sstream>

namespace edgebench {

// Each entry is defined in its own file under load/scenarios/.
extern const ScenarioEntry kSingleStreamScenario;
extern const ScenarioEntry kMultiStreamScenario;
extern const ScenarioEntry kServerScenario;
extern const ScenarioEntry kOfflineScenario;
extern const ScenarioEntry kSoakScenario;
extern const ScenarioEntry kLanguageModelScenario;
extern const ScenarioEntry kBurstScenario;

const std::vector<const ScenarioEntry*>& RegisteredScenarios() {
  // One line per scenario.
  static const std::vector<const ScenarioEntry*> entries = {
      &kSingleStreamScenario,
      &kMultiStreamScenario,
      &kServerScenario,
      &kOfflineScenario,
      &kSoakScenario,
      &kLanguageModelScenario,
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

bool ScenarioUsesSetting(const ScenarioEntry& entry, const std::string& setting) {
  std::istringstream words(entry.settings ? entry.settings : "");
  for (std::string word; words >> word;) {
    if (word == setting) return true;
  }
  return false;
}

}  // namespace edgebench
