// Scenarios by name: the registry's entries (load/scenario_registry.h) made into scenarios with
// their settings, validated once.
#include "load/scenario.h"
#include "load/scenario_registry.h"

namespace edgebench {

SystemUnderTest& SystemOf(ScenarioContext& context) {
  if (context.system) return *context.system;
  if (!context.sessions_system) context.sessions_system = std::make_unique<SessionSystem>(context.sessions);
  return *context.sessions_system;
}

std::vector<std::string> ScenarioNames() {
  std::vector<std::string> names;
  for (const ScenarioEntry* entry : RegisteredScenarios()) names.push_back(entry->form);
  return names;
}

Result<EffectiveRunSettings> ValidateForScenario(const std::string& scenario, const RunSettings& requested) {
  auto spec = ParseScenario(scenario);
  if (!spec.ok()) return spec.status();
  RunSettings settings = requested;
  if (spec.value().entry->effective) spec.value().entry->effective(spec.value(), settings);
  return Validate(settings);
}

Result<std::unique_ptr<Scenario>> MakeScenario(const std::string& name, const RunSettings& settings,
                                               const LlmSettings& llm) {
  auto spec = ParseScenario(name);
  if (!spec.ok()) return spec.status();
  const ScenarioEntry& entry = *spec.value().entry;
  if (entry.sessions == SessionKind::kLanguageModel) return entry.make(spec.value(), EffectiveRunSettings{settings}, llm);
  auto effective = ValidateForScenario(name, settings);
  if (!effective.ok()) return effective.status();
  return entry.make(spec.value(), effective.take(), llm);
}

}  // namespace edgebench
