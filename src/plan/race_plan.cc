#include "plan/race_plan.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "core/model_ops.h"
#include "core/sha256.h"
#include "core/strings.h"
#include "load/scenario_registry.h"
#include "load/scenario_spec.h"
#include "plan/plan.h"
#include "plan/resolve_target.h"
#include "tune/race_json.h"
#include "plan/tune_space.h"

namespace edgebench {
namespace {

// Why a configuration cannot run, found before anything runs; empty when it may.
std::string PruneReason(const TuneConfiguration& c, const PlannedCase& planned, const Registry& registry,
                        std::map<std::string, std::optional<ModelOps>>& model_inputs) {
  if (!planned.skip_reason.empty()) return planned.skip_reason;
  // The same resolution a case makes when it runs, so a pruned configuration is what its case
  // would have recorded as failed or unavailable.
  const TargetResolution resolution = ResolveTarget(c.target, registry, SessionKind::kTensor);
  if (!resolution.resolved) return resolution.error;
  if (c.batch > 0) {
    const std::string& artifact = planned.spec.artifact;
    if (!model_inputs.count(artifact)) {
      auto ops = ReadModelOps(artifact);  // .onnx and .tflite; other formats are tried when run
      model_inputs[artifact] = ops.ok() ? std::optional<ModelOps>(ops.take()) : std::nullopt;
    }
    if (const auto& ops = model_inputs[artifact]) {
      for (const ModelInput& input : ops->inputs) {
        if (!input.shape_known || input.axes.empty() || !input.axes[0] || *input.axes[0] == c.batch) continue;
        return "the model's input '" + input.name + "' has a fixed first axis of " + std::to_string(*input.axes[0]) +
               " in " + std::filesystem::path(artifact).filename().string() + ", so it cannot take batch " +
               std::to_string(c.batch) + " (export it with a dynamic batch axis)";
      }
    }
  }
  return "";
}

}  // namespace

Result<RacePlan> PlanRace(const RacePlanOptions& o, const Registry& registry) {
  RaceSettings settings;
  auto objective = ParseRaceMetric(o.objective);
  if (!objective.ok()) return Status::Error("--objective: " + objective.error());
  settings.objective = objective.take();
  for (const std::string& list : o.constraints) {
    auto parsed = ParseConstraints(list);
    if (!parsed.ok()) return Status::Error(parsed.error());
    for (Constraint& c : parsed.value()) {
      auto metric = RaceMetricForConstraint(c);
      if (!metric.ok()) return Status::Error(metric.error());
      settings.constraints.push_back({std::move(c), metric.take()});
    }
  }
  if (!(o.confidence > 0.5 && o.confidence < 1)) return Status::Error("--confidence must lie between 0.5 and 1 (e.g. 0.95)");
  settings.confidence = o.confidence;
  if (o.rounds < 1 || o.rounds > 12) return Status::Error("--rounds must be from 1 to 12 (round r measures 2^r times round 0's queries)");
  settings.max_rounds = o.rounds;
  if (!(o.tie_percent >= 0 && o.tie_percent < 100)) return Status::Error("--tie must be a percentage from 0 to 100");
  settings.tie_tolerance = o.tie_percent / 100;
  if (!(o.precision_percent >= 0 && o.precision_percent < 100)) return Status::Error("--precision must be a percentage from 0 to 100");
  settings.precision = o.precision_percent / 100;
  settings.exhaustive = o.exhaustive;
  if (!o.budget.empty()) {
    auto budget = ParseDurationMs(o.budget);
    if (!budget.ok()) return Status::Error("--budget: " + budget.error());
    if (budget.value() <= 0) return Status::Error("--budget must be longer than 0 (e.g. 10m)");
    settings.budget_ns = budget.value() * 1'000'000;
  }
  constexpr int64_t kMaxQueries = 10'000'000;
  if (o.queries < 0 || o.queries > kMaxQueries) {
    return Status::Error("--queries must be from 1 to " + std::to_string(kMaxQueries) + " (round 0's queries per configuration)");
  }
  if (o.exhaustive && o.queries == 0) {
    return Status::Error("--exhaustive measures every configuration with --queries N: give the race's final query count");
  }
  if (o.warmup < 0) return Status::Error("--warmup must be 0 or more");
  auto scenario = ParseScenario(o.scenario);
  if (!scenario.ok()) return Status::Error("--scenario: " + scenario.error());
  if (!scenario.value().entry->rules.raced) {
    return Status::Error("--scenario: tune races single-stream or multi-stream:N (their query latencies are the samples "
                "its intervals need); '" + o.scenario + "' is not one of them");
  }
  auto space = ParseSpace(o.space);
  if (!space.ok()) return Status::Error(space.error());
  auto configurations = ExpandSpace(space.value());
  if (!configurations.ok()) return Status::Error(configurations.error());
  auto model = ParseModelArgument(o.model_path);
  if (!model.ok()) return Status::Error(model.error());
  PlanModel plan_model;
  plan_model.model = model.take();
  if (!o.model_name.empty()) plan_model.model.name = o.model_name;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, plan_model.dims); !s.ok()) return Status::Error(s.message());
  }
  const std::vector<std::string> known = registry.Names();
  for (const TuneConfiguration& c : configurations.value()) {
    if (std::find(known.begin(), known.end(), c.target.backend) == known.end()) {
      return Status::Error("--space: unknown backend '" + c.target.backend + "' in '" + c.values.at("target") +
                  "'; backends: " + Join(known, ", "));
    }
  }

  // One planned case per configuration; pruning before anything runs.
  RaceDescription race;
  race.model = plan_model.model.name;
  race.scenario = scenario.value().Canonical();
  race.space = o.space;
  std::vector<CaseSpec> specs;
  std::map<std::string, std::optional<ModelOps>> model_inputs;
  for (const TuneConfiguration& c : configurations.value()) {
    PlanRequest request;
    request.models = {plan_model};
    request.targets = {c.target};
    request.scenarios = {race.scenario};
    request.settings.warmup_queries = o.warmup;
    request.settings.seed = o.seed;
    request.settings.batch = c.batch;
    request.settings.min_duration_ms = 0;
    request.settings.max_duration_ms = 3'600'000;
    auto plan = PlanCases(request, registry);
    if (!plan.ok()) return Status::Error(plan.error());
    if (plan.value().size() != 1) return Status::Error("internal: a configuration planned " + std::to_string(plan.value().size()) + " cases");
    const std::string reason = PruneReason(c, plan.value()[0], registry, model_inputs);
    if (!reason.empty()) {
      race.pruned.push_back({c.label, reason});
      continue;
    }
    specs.push_back(plan.value()[0].spec);
    const double streams = static_cast<double>(scenario.value().streams);
    race.entrants.push_back({c.label, streams * static_cast<double>(std::max<int64_t>(c.batch, 1))});
  }
  if (race.entrants.empty()) return RacePlan{settings, race, specs};
  settings.initial_queries = o.queries > 0 ? o.queries
                                           : DefaultInitialQueries(settings.objective, RaceIntervalAlpha(settings, race.entrants.size()));
  race.settings = settings;
  nlohmann::json identity = {{"model", race.model}, {"scenario", race.scenario}, {"settings", RaceSettingsToJson(settings)},
                             {"warmup", o.warmup}, {"seed", o.seed}, {"dims", plan_model.dims}};
  for (const CaseSpec& spec : specs) identity["cases"].push_back({spec.TargetText(), spec.artifact_sha256, spec.settings.batch});
  race.id = Sha256Hex(identity.dump()).substr(0, 16);

  return RacePlan{settings, race, specs};
}

}  // namespace edgebench
