#include "record/record_token_drift.h"

namespace edgebench {
namespace {

nlohmann::json ValueJson(const ValueWithUncertainty& v) { return {{"value", v.value}, {"uncertainty", v.uncertainty}}; }

ValueWithUncertainty ValueFromJson(const nlohmann::json& j) {
  return {j.at("value").get<double>(), j.at("uncertainty").get<double>()};
}

}  // namespace

nlohmann::json TokenDriftSummaryToJson(const TokenDriftSummary& s) {
  nlohmann::json percentiles = nlohmann::json::array();
  for (const KldPercentile& p : s.kld_percentiles) percentiles.push_back({{"percent", p.percent}, {"kld", p.kld}});
  return {{"positions", s.positions},
          {"mean_kld", ValueJson(s.mean_kld)},
          {"max_kld", s.max_kld},
          {"min_kld", s.min_kld},
          {"median_kld", s.median_kld},
          {"kld_percentiles", percentiles},
          {"same_top", ValueJson(s.same_top)},
          {"mean_delta_p", ValueJson(s.mean_delta_p)},
          {"rms_delta_p", ValueJson(s.rms_delta_p)},
          {"max_abs_delta_p", s.max_abs_delta_p}};
}

TokenDriftSummary TokenDriftSummaryFromJson(const nlohmann::json& j) {
  TokenDriftSummary s;
  s.positions = j.at("positions").get<int64_t>();
  s.mean_kld = ValueFromJson(j.at("mean_kld"));
  s.max_kld = j.at("max_kld").get<double>();
  s.min_kld = j.at("min_kld").get<double>();
  s.median_kld = j.at("median_kld").get<double>();
  for (const auto& p : j.at("kld_percentiles")) {
    s.kld_percentiles.push_back({p.at("percent").get<double>(), p.at("kld").get<double>()});
  }
  s.same_top = ValueFromJson(j.at("same_top"));
  s.mean_delta_p = ValueFromJson(j.at("mean_delta_p"));
  s.rms_delta_p = ValueFromJson(j.at("rms_delta_p"));
  s.max_abs_delta_p = j.at("max_abs_delta_p").get<double>();
  return s;
}

nlohmann::json PromptDriftsToJson(const std::vector<PromptDrift>& prompts) {
  nlohmann::json list = nlohmann::json::array();
  for (const PromptDrift& p : prompts) {
    list.push_back({{"tokens", p.tokens},
                    {"positions", p.positions},
                    {"mean_kld", p.mean_kld},
                    {"max_kld", p.max_kld},
                    {"same_top", p.same_top}});
  }
  return list;
}

std::vector<PromptDrift> PromptDriftsFromJson(const nlohmann::json& json) {
  std::vector<PromptDrift> prompts;
  for (const auto& p : json) {
    prompts.push_back({p.at("tokens").get<int64_t>(), p.at("positions").get<int64_t>(), p.at("mean_kld").get<double>(),
                       p.at("max_kld").get<double>(), p.at("same_top").get<double>()});
  }
  return prompts;
}

nlohmann::json TokenDriftToJson(const TokenDriftRecord& d) {
  nlohmann::json j = {{"definitions", "llama-perplexity --kl-divergence"},
                      {"role", d.role},
                      {"is_reference", d.is_reference},
                      {"reference", d.reference},
                      {"reference_description", d.reference_description},
                      {"description", d.description},
                      {"prompts", d.prompts},
                      {"prompt_source", d.prompt_source},
                      {"max_tokens", d.max_tokens},
                      {"seed", d.seed},
                      {"vocab_size", d.vocab_size},
                      {"random_weights", d.random_weights},
                      {"prompt_tokens", d.prompt_tokens},
                      {"truncated_prompts", d.truncated_prompts},
                      {"per_prompt", PromptDriftsToJson(d.per_prompt)}};
  if (d.drift) j["drift"] = TokenDriftSummaryToJson(*d.drift);
  return j;
}

Result<TokenDriftRecord> TokenDriftFromJson(const nlohmann::json& j) {
  try {
    TokenDriftRecord d;
    d.role = j.at("role").get<std::string>();
    d.is_reference = j.value("is_reference", false);
    d.reference = j.value("reference", "");
    d.reference_description = j.value("reference_description", "");
    d.description = j.value("description", "");
    d.prompts = j.value("prompts", "");
    d.prompt_source = j.value("prompt_source", "");
    d.max_tokens = j.value("max_tokens", int64_t{0});
    d.seed = j.value("seed", uint64_t{0});
    d.vocab_size = j.value("vocab_size", int32_t{0});
    d.random_weights = j.value("random_weights", false);
    d.prompt_tokens = j.value("prompt_tokens", std::vector<int64_t>{});
    d.truncated_prompts = j.value("truncated_prompts", int64_t{0});
    d.per_prompt = PromptDriftsFromJson(j.value("per_prompt", nlohmann::json::array()));
    if (j.contains("drift")) d.drift = TokenDriftSummaryFromJson(j.at("drift"));
    return d;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(e.what());
  }
}

}  // namespace edgebench
