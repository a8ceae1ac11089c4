#include "plan/run_request_check.h"

#include <algorithm>

#include "inputs/input_source.h"
#include "load/scenario.h"
#include "load/scenario_registry.h"
#include "stats/summary.h"

namespace edgebench {

std::string FlagSpelling(const std::string& key) {
  std::string flag = "--" + key;
  if (key == "p99_bound_ms") flag = "--p99-bound-ms";
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

Status CheckRunRequest(const PlanRequest& request, const std::set<std::string>& given,
                       const SettingSpelling& spell) {
  std::vector<const ScenarioEntry*> listed;
  for (const std::string& text : request.scenarios) {
    auto parsed = ParseScenario(text);
    if (!parsed.ok()) return parsed.status();
    listed.push_back(parsed.value().entry);
    if (parsed.value().entry->sessions == SessionKind::kLanguageModel) continue;
    if (auto valid = ValidateForScenario(text, request.settings); !valid.ok()) {
      return Status::Error(parsed.value().Canonical() + ": " + valid.error());
    }
  }
  // A load setting that only some scenarios use (their entries list it) is refused when given
  // explicitly with none of them listed: it would change nothing that runs.
  for (const char* key : {"sessions", "concurrency", "batch", "streams", "p99_bound_ms", "find_peak"}) {
    if (!given.count(key)) continue;
    std::vector<std::string> users;
    bool used = false;
    for (const ScenarioEntry* entry : RegisteredScenarios()) {
      if (!ScenarioUsesSetting(*entry, key)) continue;
      users.push_back(entry->family);
      used = used || std::find(listed.begin(), listed.end(), entry) != listed.end();
    }
    if (used) continue;
    std::string names;
    for (size_t i = 0; i < users.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == users.size() ? " or " : ", ") + users[i];
    }
    return Status::Error(spell(key) + " applies to the " + names + " scenario, and " + spell("scenario") +
                         " lists none");
  }
  const RunSettings& settings = request.settings;
  const int64_t p99_needs = SamplesNeededFor(0.99);
  if (settings.p99_bound_ms > 0 && settings.min_queries < p99_needs) {
    return Status::Error(spell("p99_bound_ms") + " compares a p99, which needs at least " + std::to_string(p99_needs) +
                         " queries: give " + spell("min_queries") + " " + std::to_string(p99_needs) + " or more");
  }
  if (request.find_peak && !(settings.p99_bound_ms > 0)) {
    return Status::Error(spell("find_peak") + " searches the highest rate whose p99 stays under a bound: give " +
                         spell("p99_bound_ms"));
  }
  for (const PlanModel& model : request.models) {
    Status inputs = ValidateInputOptions({model.inputs, request.input_pool, settings.seed});
    if (!inputs.ok()) return inputs;
  }
  return Status::Ok();
}

}  // namespace edgebench
