// Per-token drift of language models, in workers (request mode "token_logits"), one model per
// process as every case here:
//   role "reference": loads the reference GGUF, tokenizes the prompts (or draws seeded token
//     sequences), evaluates each with logits at every position and writes them to a token
//     logits file (diagnose/token_logits_file.h); answers with the prompts' token counts.
//   role "candidate": loads a candidate GGUF, reads that file, checks that the vocabularies (and,
//     for text prompts, the tokenizations) agree, evaluates the same tokens and compares
//     position by position (diagnose/token_drift.h); answers with statistics only, overall and
//     per prompt, never logits.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "diagnose/token_drift.h"
#include "worker/case_record.h"

namespace edgebench {

struct TokenLogitsRequest {
  std::string role = "reference";  // "reference" or "candidate"
  std::string model;               // GGUF path
  Target target;  // a llamacpp one
  std::string logits_file;         // written by the reference, read by a candidate
  // Text prompts, tokenized by each model (a candidate checks it gets the reference's tokens);
  // when empty, `random_prompts` seeded token sequences of `max_tokens` tokens (reference only).
  std::vector<std::string> prompt_texts;
  int64_t random_prompts = 0;
  int64_t max_tokens = 128;  // a prompt's tokens beyond this are dropped
  uint64_t seed = 0;
};

struct TokenLogitsResult {
  std::string status = "ok";  // as CaseStatusName
  std::string stage;
  std::string error;
  std::string effective_target;
  std::string model;              // the GGUF path
  std::string model_description;  // llama.cpp's, e.g. "llama ?B F16"
  int32_t vocab_size = 0;
  bool random_weights = false;
  std::vector<int64_t> prompt_tokens;  // each prompt's token count, as evaluated
  int64_t truncated_prompts = 0;       // reference: prompts cut to max_tokens
  std::optional<TokenDriftSummary> drift;  // candidate
  std::vector<PromptDrift> prompts;        // candidate
};

nlohmann::json TokenLogitsRequestToJson(const TokenLogitsRequest& request);
Result<TokenLogitsRequest> TokenLogitsRequestFromJson(const nlohmann::json& json);
nlohmann::json TokenLogitsResultToJson(const TokenLogitsResult& result);
Result<TokenLogitsResult> TokenLogitsResultFromJson(const nlohmann::json& json);

// The worker's side of either role.
TokenLogitsResult RunTokenLogitsCase(const TokenLogitsRequest& request, Registry& registry,
                                     const StageCallback& on_stage = {});

}  // namespace edgebench
