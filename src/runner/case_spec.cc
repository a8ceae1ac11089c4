#include "runner/case_spec.h"

#include "report/record.h"

namespace edgebench {

nlohmann::json CaseSpecToJson(const CaseSpec& spec) {
  return {{"model", spec.model},
          {"artifact", spec.artifact},
          {"target", spec.target},
          {"dims", spec.dims},
          {"settings", RunSettingsToJson(spec.settings)},
          {"scenario", spec.scenario},
          {"llm", LlmSettingsToJson(spec.llm)}};
}

Result<CaseSpec> CaseSpecFromJson(const nlohmann::json& j) {
  try {
    CaseSpec spec;
    spec.model = j.at("model").get<std::string>();
    spec.artifact = j.at("artifact").get<std::string>();
    spec.target = j.at("target").get<std::string>();
    spec.dims = j.at("dims").get<ShapeBindings>();
    spec.settings = RunSettingsFromJson(j.at("settings"));
    spec.scenario = j.at("scenario").get<std::string>();
    spec.llm = LlmSettingsFromJson(j.at("llm"));
    return spec;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed case description: ") + e.what());
  }
}

}  // namespace edgebench
