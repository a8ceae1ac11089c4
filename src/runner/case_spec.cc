#include "runner/case_spec.h"

namespace edgebench {

nlohmann::json CaseSpecToJson(const CaseSpec& spec) {
  const RunSettings& s = spec.settings;
  return {{"model", spec.model},
          {"artifact", spec.artifact},
          {"target", spec.target},
          {"dims", spec.dims},
          {"settings",
           {{"warmup_queries", s.warmup_queries}, {"min_queries", s.min_queries},
            {"min_duration_ms", s.min_duration_ms}, {"max_duration_ms", s.max_duration_ms},
            {"seed", s.seed}, {"max_cv", s.max_cv}, {"case_timeout_ms", s.case_timeout_ms}}}};
}

Result<CaseSpec> CaseSpecFromJson(const nlohmann::json& j) {
  try {
    CaseSpec spec;
    spec.model = j.at("model").get<std::string>();
    spec.artifact = j.at("artifact").get<std::string>();
    spec.target = j.at("target").get<std::string>();
    spec.dims = j.at("dims").get<ShapeBindings>();
    const auto& s = j.at("settings");
    spec.settings.warmup_queries = s.at("warmup_queries").get<int64_t>();
    spec.settings.min_queries = s.at("min_queries").get<int64_t>();
    spec.settings.min_duration_ms = s.at("min_duration_ms").get<int64_t>();
    spec.settings.max_duration_ms = s.at("max_duration_ms").get<int64_t>();
    spec.settings.seed = s.at("seed").get<uint64_t>();
    spec.settings.max_cv = s.at("max_cv").get<double>();
    spec.settings.case_timeout_ms = s.at("case_timeout_ms").get<int64_t>();
    return spec;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed case description: ") + e.what());
  }
}

}  // namespace edgebench
