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
extern const ScenarioEntry kCameraScenario;

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
      &kCameraScenario,
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

std::string ScenarioForms() {
  std::string forms;
  for (const ScenarioEntry* entry : RegisteredScenarios()) {
    forms += (forms.empty() ? "" : ", ") + std::string(entry->form);
  }
  return forms;
}

std::string ScenarioSpec::family() const { return entry ? entry->family : "unknown"; }

std::string ScenarioSpec::Canonical() const { return entry ? entry->canonical(*this) : "unknown"; }

Result<ScenarioSpec> ParseScenario(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string family = text.substr(0, colon);
  const bool has_parameter = colon != std::string::npos;
  const std::string parameter = has_parameter ? text.substr(colon + 1) : "";
  const ScenarioEntry* entry = FindRegisteredScenario(family);
  if (!entry) return Status::Error("unknown scenario '" + text + "'; scenarios: " + ScenarioForms());
  ScenarioSpec spec;
  spec.entry = entry;
  if (Status parsed = entry->parse(parameter, has_parameter, spec); !parsed.ok()) {
    return Status::Error("scenario '" + text + "': " + parsed.message() + "; scenarios: " + ScenarioForms());
  }
  return spec;
}

}  // namespace edgebench
