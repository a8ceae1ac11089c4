#include "plan/case_spec.h"

#include <algorithm>

#include "backends/target.h"
#include "core/sha256.h"
#include "load/scenario.h"
#include "load/scenario_registry.h"
#include "record/monitor_json.h"
#include "record/record.h"
#include "record/record_json.h"
#include "load/case_kind.h"

namespace edgebench {

nlohmann::json CaseSpecToJson(const CaseSpec& spec) {
  return {{"model", spec.model},
          {"artifact", spec.artifact},
          {"artifact_sha256", spec.artifact_sha256},
          {"variant", spec.variant},
          {"target", spec.TargetText()},
          {"dims", spec.dims},
          {"strict_dims", spec.strict_dims},
          {"inputs", spec.inputs},
          {"input_pool", spec.input_pool},
          {"settings", RunSettingsToJson(spec.settings)},
          {"effective_settings", spec.effective ? RunSettingsToJson(*spec.effective) : nlohmann::json()},
          {"scenario", spec.scenario},
          {"llm", LlmSettingsToJson(spec.llm)},
          {"case_key", spec.case_key},
          {"monitor", MonitorSettingsToJson(spec.monitor)},
          {"profile", spec.profile},
          {"start", spec.start},
          {"tune", spec.tune ? TuneTagToJson(*spec.tune) : nlohmann::json()},
          {"pipeline", spec.pipeline ? PipelinePlanToJson(*spec.pipeline) : nlohmann::json()}};
}

Result<CaseSpec> CaseSpecFromJson(const nlohmann::json& j) {
  try {
    CaseSpec spec;
    spec.model = j.at("model").get<std::string>();
    spec.artifact = j.at("artifact").get<std::string>();
    spec.artifact_sha256 = j.value("artifact_sha256", "");
    spec.variant = j.value("variant", "");
    const std::string target = j.at("target").get<std::string>();
    if (j.contains("pipeline") && !j.at("pipeline").is_null()) {
      auto plan = PipelinePlanFromJson(j.at("pipeline"), target);
      if (!plan.ok()) return Status::Error("malformed case description: " + plan.error());
      spec.pipeline = plan.take();
    }
    // A pipeline's case has a target only when every stage runs on the one of --target.
    if (!spec.pipeline || std::any_of(spec.pipeline->stages.begin(), spec.pipeline->stages.end(),
                                      [&](const PipelinePlanStage& s) { return s.target.text == target && !target.empty(); })) {
      auto parsed = ParseTarget(target);
      if (!parsed.ok()) return Status::Error("malformed case description: " + parsed.error());
      spec.target = parsed.take();
    }
    spec.dims = j.at("dims").get<ShapeBindings>();
    spec.strict_dims = j.value("strict_dims", false);
    spec.inputs = j.value("inputs", std::vector<std::string>{});
    spec.input_pool = j.value("input_pool", int64_t{1});
    spec.settings = RunSettingsFromJson(j.at("settings"));
    if (j.contains("effective_settings") && !j.at("effective_settings").is_null()) {
      spec.effective = RunSettingsFromJson(j.at("effective_settings"));
    }
    spec.scenario = j.at("scenario").get<std::string>();
    spec.llm = LlmSettingsFromJson(j.at("llm"));
    spec.case_key = j.value("case_key", "");
    if (j.contains("monitor")) spec.monitor = MonitorSettingsFromJson(j.at("monitor"));
    spec.profile = j.value("profile", false);
    spec.start = j.value("start", "");
    if (j.contains("tune") && !j.at("tune").is_null()) {
      auto tag = TuneTagFromJson(j.at("tune"));
      if (!tag.ok()) return Status::Error("malformed case description: the tune tag: " + tag.error());
      spec.tune = tag.take();
    }
    return spec;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed case description: ") + e.what());
  }
}

Result<Target> ReadCaseTarget(const nlohmann::json& request) {
  if (!request.contains("target") || !request.at("target").is_string()) {
    return Status::Error("malformed request: no target");
  }
  auto target = ParseTarget(request.at("target").get<std::string>());
  if (!target.ok()) return Status::Error("malformed request: " + target.error());
  return target;
}

Result<RunSettings> EffectiveSettingsOf(const CaseSpec& spec) {
  if (spec.effective) return *spec.effective;
  // A scenario that is not one of the load scenarios ("agree"'s cases) runs as requested.
  auto effective = ParseScenario(spec.scenario).ok() ? ValidateForScenario(spec.scenario, spec.settings)
                                                     : Validate(spec.settings);
  if (!effective.ok()) return effective.status();
  return effective.value().values;
}

Status SettleCase(CaseSpec& spec) {
  spec.effective.reset();
  auto effective = EffectiveSettingsOf(spec);
  if (!effective.ok()) return effective.status();
  spec.effective = effective.take();
  spec.case_key = CaseKey(spec);
  return Status::Ok();
}

namespace {

// The target in the case key: the canonical spelling, so that option order does not matter. A
// pipeline case without one target is keyed by its label, and a host-only one ("host") by
// "host:cpu": the keys such cases had when the label was read as a target, kept so a resumed
// store still finds them.
std::string KeyTarget(const CaseSpec& spec) {
  if (!spec.target.backend.empty()) return spec.target.Canonical();
  if (spec.pipeline && spec.pipeline->label == "host") return "host:cpu";
  return spec.TargetText();
}

}  // namespace

std::string CaseKey(const CaseSpec& spec) {
  // The scenario's own settings only: single-stream cases ignore the llm block and vice versa,
  // and the case timeout decides nothing about what is measured.
  RunSettings settings = spec.settings;
  settings.case_timeout_ms = 0;
  settings.case_memory_mb = 0;
  nlohmann::json identity = {{"model", spec.model},
                             {"artifact_sha256", spec.artifact_sha256.empty() ? spec.artifact
                                                                              : spec.artifact_sha256},
                             {"target", KeyTarget(spec)},
                             {"scenario", spec.scenario},
                             {"dims", spec.dims},
                             {"strict_dims", spec.strict_dims},
                             {"inputs", spec.inputs},
                             {"input_pool", spec.input_pool}};
  if (CaseKindOf(spec.scenario) == CaseKind::kLanguageModel) {
    identity["llm"] = LlmSettingsToJson(spec.llm);
  } else {
    // Load settings left at their defaults stay out, so cases planned before they existed keep
    // their keys (a resumed suite does not rerun them).
    nlohmann::json json_settings = RunSettingsToJson(settings);
    const nlohmann::json defaults = RunSettingsToJson(RunSettings{});
    for (const char* key : {"sessions", "concurrency", "batch", "streams", "window_ms", "confidence",
                            "p99_bound_ms"}) {
      if (json_settings[key] == defaults[key]) json_settings.erase(key);
    }
    identity["settings"] = json_settings;
  }
  // A profiled case measures the runtime with its profiler on: not the same measurement. Absent
  // when off, so unprofiled cases keep the keys they had.
  if (spec.profile) identity["profile"] = true;
  // A cold start measures the load from disk: not what a warm one measures. Absent when warm,
  // so warm cases keep the keys they had.
  if (spec.start == "cold") identity["start"] = "cold";
  if (spec.tune) identity["tune"] = TuneTagToJson(*spec.tune);
  // A pipeline's stages, their targets and artifacts decide what it measures; the artifact
  // digest is the pipeline file's.
  if (spec.pipeline) identity["pipeline"] = PipelinePlanToJson(*spec.pipeline);
  return Sha256Hex(identity.dump()).substr(0, 16);
}

}  // namespace edgebench
