#include "runner/case_spec.h"

#include "backends/target.h"
#include "core/sha256.h"
#include "load/scenario.h"
#include "record/monitor_json.h"
#include "record/record.h"

namespace edgebench {

nlohmann::json CaseSpecToJson(const CaseSpec& spec) {
  return {{"model", spec.model},
          {"artifact", spec.artifact},
          {"artifact_sha256", spec.artifact_sha256},
          {"variant", spec.variant},
          {"target", spec.target},
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
          {"tune", spec.tune},
          {"pipeline", spec.pipeline}};
}

Result<CaseSpec> CaseSpecFromJson(const nlohmann::json& j) {
  try {
    CaseSpec spec;
    spec.model = j.at("model").get<std::string>();
    spec.artifact = j.at("artifact").get<std::string>();
    spec.artifact_sha256 = j.value("artifact_sha256", "");
    spec.variant = j.value("variant", "");
    spec.target = j.at("target").get<std::string>();
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
    if (j.contains("tune")) spec.tune = j.at("tune");
    if (j.contains("pipeline")) spec.pipeline = j.at("pipeline");
    return spec;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed case description: ") + e.what());
  }
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

std::string CaseKey(const CaseSpec& spec) {
  // The scenario's own settings only: single-stream cases ignore the llm block and vice versa,
  // and the case timeout decides nothing about what is measured.
  RunSettings settings = spec.settings;
  settings.case_timeout_ms = 0;
  settings.case_memory_mb = 0;
  const auto target = ParseTarget(spec.target);
  nlohmann::json identity = {{"model", spec.model},
                             {"artifact_sha256", spec.artifact_sha256.empty() ? spec.artifact
                                                                              : spec.artifact_sha256},
                             {"target", target.ok() ? target.value().Canonical() : spec.target},
                             {"scenario", spec.scenario},
                             {"dims", spec.dims},
                             {"strict_dims", spec.strict_dims},
                             {"inputs", spec.inputs},
                             {"input_pool", spec.input_pool}};
  if (spec.scenario == "llm") {
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
  if (!spec.tune.is_null()) identity["tune"] = spec.tune;
  // A pipeline's stages, their targets and artifacts decide what it measures; the artifact
  // digest is the pipeline file's.
  if (!spec.pipeline.is_null()) identity["pipeline"] = spec.pipeline;
  return Sha256Hex(identity.dump()).substr(0, 16);
}

}  // namespace edgebench
