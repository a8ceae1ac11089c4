#include "plan/plan.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "core/cartesian.h"
#include "core/sha256.h"
#include "core/strings.h"
#include "load/scenario_registry.h"
#include "load/scenario_spec.h"
#include "plan/resolve_target.h"
#include "load/case_kind.h"

namespace edgebench {

std::vector<PlannedTarget> PlanTargets(const ModelSpec& model, const std::vector<Target>& targets,
                                       const Registry& registry) {
  std::vector<PlannedTarget> plan;
  for (const Target& target : targets) {
    PlannedTarget planned{target, std::nullopt, ""};
    if (const Backend* backend = registry.Find(target.backend)) {
      auto artifact = SelectArtifact(model, backend->Info(), target.device);
      if (artifact.ok()) {
        planned.artifact = artifact.take();
      } else {
        planned.skip_reason = artifact.error();
      }
    } else {
      planned.artifact = model.artifacts.front();
    }
    plan.push_back(planned);
  }
  return plan;
}

namespace {

// Why `scenario` cannot run on `target` (a language-model scenario on a tensor runtime, or the
// other way round), or "" when it can or the target is unknown here (running it says why).
std::string ScenarioMismatch(const Target& target, const std::string& scenario,
                             const Registry& registry) {
  const Backend* backend = registry.Find(target.backend);
  if (!backend) return "";
  const BackendInfo info = backend->Info();
  for (const DeviceInfo& device : info.devices) {
    if (device.name != target.device) continue;
    const bool llm_scenario = CaseKindOf(scenario) == CaseKind::kLanguageModel;
    if (llm_scenario && !device.capabilities.language_model) {
      return "scenario llm is for language models; " + info.name + ":" + device.name +
             " runs tensor models (llamacpp:cpu runs language models)";
    }
    if (!llm_scenario && device.capabilities.language_model) {
      return info.name + ":" + device.name + " runs language models only; scenario " + scenario +
             " is for tensor models (use scenario llm)";
    }
  }
  return "";
}

}  // namespace

std::string MissingArtifacts(const std::vector<PlannedTarget>& plan) {
  std::string missing;
  for (const PlannedTarget& p : plan) {
    if (!p.artifact || p.target.backend == "null") continue;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p.artifact->path, ec) &&
        missing.find("'" + p.artifact->path + "'") == std::string::npos) {
      missing += (missing.empty() ? "" : "; ") + std::string("model file '") + p.artifact->path +
                 "' does not exist";
    }
  }
  return missing;
}

Result<std::string> ArtifactDigests::Of(const std::string& path) {
  if (auto it = known_.find(path); it != known_.end()) return it->second;
  auto digest = Sha256OfFile(path);
  if (!digest.ok()) return digest.status();
  return known_.emplace(path, digest.take()).first->second;
}

Status CheckCaseCount(double count, const std::string& what) {
  if (count <= static_cast<double>(kMaxPlannedCases)) return Status::Ok();
  char text[64];
  std::snprintf(text, sizeof text, count < 1e15 ? "%.0f" : "%.3g", count);
  return Status::Error(what + " expands to " + text + " cases, more than the limit of " +
                       std::to_string(kMaxPlannedCases) + " one plan may hold; split it into smaller ones");
}

Result<std::vector<PlannedCase>> PlanCases(const PlanRequest& request, const Registry& registry) {
  for (const Target& t : request.targets) {
    if (Status known = CheckTargetKnown(t, registry); !known.ok()) return known;
  }
  // Every artifact of every model must exist, not only those a target picks: a mistyped path
  // that no backend reads would otherwise be "skipped" for every target. Only the null backend
  // reads nothing.
  const bool reads_files = std::any_of(request.targets.begin(), request.targets.end(),
                                       [](const Target& t) { return t.backend != "null"; });
  std::vector<std::string> missing;
  for (const PlanModel& m : request.models) {
    for (const ArtifactSpec& a : m.model.artifacts) {
      std::error_code ec;
      if (!reads_files || std::filesystem::is_regular_file(a.path, ec)) continue;
      const std::string why = std::filesystem::is_directory(a.path, ec)
                                  ? "'" + a.path + "' is a directory, not a model file"
                                  : "model file '" + a.path + "' does not exist";
      if (std::find(missing.begin(), missing.end(), why) == missing.end()) missing.push_back(why);
    }
  }
  if (!missing.empty()) return Status::Error(Join(missing, "; "));
  std::vector<std::string> scenarios;
  for (const std::string& text : request.scenarios) {
    auto parsed = ParseScenario(text);
    if (!parsed.ok()) return parsed.status();
    scenarios.push_back(parsed.value().Canonical());
  }
  std::stable_partition(scenarios.begin(), scenarios.end(), [](const std::string& s) { return RulesOfScenario(s).baseline; });
  double per_target = 0;  // cases of each model on each target
  for (const std::string& scenario : scenarios) {
    per_target += CaseKindOf(scenario) == CaseKind::kLanguageModel ? CartesianCount({request.prompt_lengths.size(), request.gen_lengths.size()}) : 1.0;
  }
  if (Status s = CheckCaseCount(static_cast<double>(request.models.size()) *
                                    static_cast<double>(request.targets.size()) * per_target,
                                "the plan (" + std::to_string(request.models.size()) + " models x " +
                                    std::to_string(request.targets.size()) + " targets x scenarios and lengths)");
      !s.ok()) {
    return s;
  }
  std::vector<PlannedCase> cases;
  ArtifactDigests digests;
  for (const PlanModel& m : request.models) {
    const std::vector<PlannedTarget> targets = PlanTargets(m.model, request.targets, registry);
    for (const PlannedTarget& planned : targets) {
      CaseSpec base;
      base.model = m.model.name;
      base.target = planned.target;
      base.dims = m.dims;
      base.strict_dims = request.strict_dims;
      base.inputs = m.inputs;
      base.input_pool = request.input_pool;
      base.settings = request.settings;
      if (planned.artifact) {
        base.artifact = planned.artifact->path;
        base.variant = planned.artifact->variant;
        // The model's bytes decide the case for every backend, the null one included (it
        // does not read them, but a store's cases of another file are not these); a null
        // case's model may be a bare name with no file behind it.
        std::error_code ec;
        if (planned.target.backend != "null" || std::filesystem::is_regular_file(base.artifact, ec)) {
          auto digest = digests.Of(base.artifact);
          if (!digest.ok()) return digest.status();
          base.artifact_sha256 = digest.take();
        }
      }
      for (const std::string& scenario : scenarios) {
        std::vector<CaseSpec> specs;
        if (CaseKindOf(scenario) == CaseKind::kLanguageModel) {
          ForEachCombination({request.prompt_lengths.size(), request.gen_lengths.size()},
                             [&](const std::vector<size_t>& index) {
                               CaseSpec spec = base;
                               spec.scenario = scenario;
                               spec.llm = request.llm_base;
                               spec.llm.prompt_tokens = request.prompt_lengths[index[0]];
                               spec.llm.gen_tokens = request.gen_lengths[index[1]];
                               specs.push_back(spec);
                             });
        } else {
          CaseSpec spec = base;
          spec.scenario = scenario;
          specs.push_back(spec);
        }
        // A suite crosses every model with every scenario: a language model's llm cases and
        // a tensor model's load cases are meant, their crossings are not (skipped, not failed).
        std::string skip = planned.artifact ? "" : planned.skip_reason;
        if (skip.empty()) skip = ScenarioMismatch(planned.target, scenario, registry);
        for (CaseSpec& spec : specs) {
          spec.monitor = request.monitor;
          spec.profile = request.profile;
          if (Status settled = SettleCase(spec); !settled.ok()) {
            return Status::Error(spec.scenario + " on " + spec.TargetText() + ": " + settled.message());
          }
          const bool find_peak = request.find_peak && RulesOfScenario(spec.scenario).server;
          cases.push_back({spec, skip, find_peak, nullptr, std::nullopt});
        }
      }
    }
  }
  return cases;
}

Result<std::vector<PlannedCase>> PlanPipeline(const PipelineSpec& pipeline, const std::vector<PipelinePlan>& combinations,
                                              const PlanRequest& request, const ShapeBindings& shape) {
  std::vector<std::string> scenarios;
  for (const std::string& text : request.scenarios) {
    auto parsed = ParseScenario(text);
    if (!parsed.ok()) return parsed.status();
    if (parsed.value().entry->sessions == SessionKind::kLanguageModel) {
      return Status::Error("scenario " + text + " is for language models; a pipeline runs tensor scenarios");
    }
    scenarios.push_back(parsed.value().Canonical());
  }
  std::stable_partition(scenarios.begin(), scenarios.end(), [](const std::string& s) { return RulesOfScenario(s).baseline; });
  if (Status s = CheckCaseCount(CartesianCount({combinations.size(), scenarios.size()}),
                                "pipeline '" + pipeline.name + "' (" + std::to_string(combinations.size()) +
                                    " combinations of its stages' targets x scenarios)");
      !s.ok()) {
    return s;
  }
  auto digest = Sha256OfFile(pipeline.path);
  if (!digest.ok()) return digest.status();
  std::vector<PlannedCase> cases;
  for (const PipelinePlan& combination : combinations) {
    for (const std::string& scenario : scenarios) {
      CaseSpec spec;
      spec.model = pipeline.name;
      spec.artifact = pipeline.path;
      spec.artifact_sha256 = digest.value();
      // --target T: every model stage runs on T, and the case is T's.
      for (const PipelinePlanStage& stage : combination.stages) {
        if (IsModelStageKind(stage.kind) && stage.target.text == combination.label) spec.target = stage.target;
      }
      spec.settings = request.settings;
      spec.scenario = scenario;
      spec.monitor = request.monitor;
      spec.profile = request.profile;
      spec.pipeline = combination;
      spec.dims = shape;
      if (Status settled = SettleCase(spec); !settled.ok()) {
        return Status::Error(spec.scenario + " on " + spec.TargetText() + ": " + settled.message());
      }
      const bool find_peak = request.find_peak && RulesOfScenario(spec.scenario).server;
      cases.push_back({spec, "", find_peak, nullptr, std::nullopt});
    }
  }
  return cases;
}

}  // namespace edgebench
