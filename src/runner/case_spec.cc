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
            {"seed", s.seed}, {"max_cv", s.max_cv}, {"case_timeout_ms", s.case_timeout_ms}}},
          {"scenario", spec.scenario},
          {"llm",
           {{"prompt_tokens", spec.llm.prompt_tokens}, {"gen_tokens", spec.llm.gen_tokens},
            {"repetitions", spec.llm.repetitions}, {"warmup_requests", spec.llm.warmup_requests},
            {"sequences", spec.llm.sequences}, {"seed", spec.llm.seed},
            {"prompt_text", spec.llm.prompt_text}}}};
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
    spec.scenario = j.at("scenario").get<std::string>();
    const auto& l = j.at("llm");
    spec.llm.prompt_tokens = l.at("prompt_tokens").get<int64_t>();
    spec.llm.gen_tokens = l.at("gen_tokens").get<int64_t>();
    spec.llm.repetitions = l.at("repetitions").get<int64_t>();
    spec.llm.warmup_requests = l.at("warmup_requests").get<int64_t>();
    spec.llm.sequences = l.at("sequences").get<int64_t>();
    spec.llm.seed = l.at("seed").get<uint64_t>();
    spec.llm.prompt_text = l.at("prompt_text").get<std::string>();
    return spec;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed case description: ") + e.what());
  }
}

}  // namespace edgebench
