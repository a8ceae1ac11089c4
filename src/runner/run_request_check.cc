#include "runner/run_request_check.h"

#include <algorithm>

#include "inputs/input_source.h"
#include "load/scenario.h"
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
  std::set<ScenarioKind> kinds;
  for (const std::string& text : request.scenarios) {
    auto parsed = ParseScenario(text);
    if (!parsed.ok()) return parsed.status();
    kinds.insert(parsed.value().kind);
    if (parsed.value().kind == ScenarioKind::kLanguageModel) continue;
    if (auto valid = ValidateForScenario(text, request.settings); !valid.ok()) {
      return Status::Error(parsed.value().Canonical() + ": " + valid.error());
    }
  }
  auto uses = [&](std::initializer_list<ScenarioKind> any) {
    return std::any_of(any.begin(), any.end(), [&](ScenarioKind k) { return kinds.count(k) > 0; });
  };
  using K = ScenarioKind;
  const struct {
    const char* key;
    bool used;
    const char* scenarios;
  } kLoadSettings[] = {
      // Every scenario of the registry has streams, each with its session or one shared.
      {"sessions", uses({K::kMultiStream, K::kServer, K::kOffline, K::kSoak, K::kRegistered}),
       "multi-stream, server, offline, soak or burst"},
      {"concurrency", uses({K::kServer, K::kOffline}), "server or offline"},
      {"batch", uses({K::kOffline}), "offline"},
      {"streams", uses({K::kSoak}), "soak"},
      {"p99_bound_ms", uses({K::kServer}), "server"},
      {"find_peak", uses({K::kServer}), "server"},
  };
  for (const auto& setting : kLoadSettings) {
    if (given.count(setting.key) && !setting.used) {
      return Status::Error(spell(setting.key) + " applies to the " + setting.scenarios + " scenario, and " +
                           spell("scenario") + " lists none");
    }
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
