// The record's `token_drift` section (docs/records.md, docs/drift.md): one side of `edgebench
// drift` on GGUF language models, with llama-perplexity --kl-divergence's statistics; and the
// JSON of those statistics, which workers send too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/token_drift_summary.h"

namespace edgebench {

struct TokenDriftRecord {
  // "reference": the reference's run, which wrote its logits; "candidate": a model compared with
  // them (the reference itself too, when is_reference: its KLD must be 0).
  std::string role = "candidate";
  bool is_reference = false;
  std::string reference;              // the reference GGUF's path
  std::string reference_description;  // llama.cpp's, e.g. "llama ?B F16"
  std::string description;            // this side's
  std::string prompts;                // the prompt set, for people
  std::string prompt_source;          // "built-in", "file" or "random"
  int64_t max_tokens = 0;
  uint64_t seed = 0;
  int32_t vocab_size = 0;
  bool random_weights = false;
  std::vector<int64_t> prompt_tokens;  // each prompt's token count, as evaluated
  int64_t truncated_prompts = 0;
  std::optional<TokenDriftSummary> drift;  // a candidate's
  std::vector<PromptDrift> per_prompt;     // a candidate's
};

nlohmann::json TokenDriftSummaryToJson(const TokenDriftSummary& summary);
TokenDriftSummary TokenDriftSummaryFromJson(const nlohmann::json& json);  // throws on a missing field
nlohmann::json PromptDriftsToJson(const std::vector<PromptDrift>& prompts);
std::vector<PromptDrift> PromptDriftsFromJson(const nlohmann::json& json);  // throws on a missing field

nlohmann::json TokenDriftToJson(const TokenDriftRecord& drift);
// The error names the field that is missing or of the wrong type.
Result<TokenDriftRecord> TokenDriftFromJson(const nlohmann::json& json);

}  // namespace edgebench
