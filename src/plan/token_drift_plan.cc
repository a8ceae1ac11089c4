#include "plan/token_drift_plan.h"

#include <filesystem>
#include <fstream>

namespace edgebench {
namespace {

struct PromptSet {
  std::vector<std::string> texts;  // empty for random sequences
  std::string description;         // for people, before the token counts are known
};

Result<PromptSet> LoadPrompts(const TokenDriftOptions& o) {
  PromptSet set;
  if (o.random_prompts > 0) {
    set.description = std::to_string(o.random_prompts) + " seeded random token sequences of " +
                      std::to_string(o.max_tokens) + " tokens (seed " + std::to_string(o.seed) + ")";
    return set;
  }
  if (o.prompts_file.empty()) {
    set.texts = DefaultDriftPrompts();
    set.description = std::to_string(set.texts.size()) + " built-in English sentences, up to " +
                      std::to_string(o.max_tokens) + " tokens each";
    return set;
  }
  std::ifstream in(o.prompts_file);
  if (!in) return Status::Error("cannot read the prompts file '" + o.prompts_file + "'");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) set.texts.push_back(line);
  }
  if (set.texts.empty()) {
    return Status::Error("the prompts file '" + o.prompts_file + "' has no prompt (one per line, empty lines skipped)");
  }
  set.description = std::to_string(set.texts.size()) + " prompts from " + o.prompts_file + ", up to " +
                    std::to_string(o.max_tokens) + " tokens each";
  return set;
}

}  // namespace

const std::vector<std::string>& DefaultDriftPrompts() {
  static const std::vector<std::string> prompts = {
      "The quick brown fox jumps over the lazy dog while the farmer watches from the porch.",
      "In 1969, two astronauts walked on the Moon and brought back 21.5 kilograms of rock.",
      "To reset the router, hold the button for ten seconds, then wait until the light turns green.",
      "She asked whether the train to Lisbon left at seven or at half past eight, and nobody knew.",
      "Photosynthesis turns carbon dioxide and water into sugar, using the energy of sunlight.",
      "def add(a, b):\n    return a + b  # a small Python function",
      "Dear committee, thank you for considering my application; I look forward to hearing from you.",
      "Rain is expected tomorrow morning, with temperatures between 12 and 17 degrees Celsius.",
  };
  return prompts;
}

Result<TokenDriftPlanRequest> TokenDriftRequestFrom(const TokenDriftOptions& o, const std::string& executable) {
  std::error_code ec;
  if (o.reference.empty() || !std::filesystem::is_regular_file(o.reference, ec)) {
    return Status::Error("reference model '" + o.reference + "' does not exist or is not a file");
  }
  if (o.candidates.empty()) return Status::Error("give at least one candidate GGUF to compare with the reference");
  for (const std::string& c : o.candidates) {
    if (!std::filesystem::is_regular_file(c, ec)) {
      return Status::Error("candidate model '" + c + "' does not exist or is not a file");
    }
  }
  if (o.format != "table" && o.format != "json") return Status::Error("--format '" + o.format + "': expected table or json");
  if (o.max_tokens < 2) {
    return Status::Error("--max-tokens must be at least 2: each position is scored against the next token");
  }
  if (o.random_prompts < 0) return Status::Error("the number of random prompts must be 0 or more");
  if (o.random_prompts > 0 && !o.prompts_file.empty()) {
    return Status::Error("give --prompts FILE or random token sequences, not both");
  }
  if (o.timeout_ms < 1) return Status::Error("--timeout must be at least 1 ms");
  auto prompts = LoadPrompts(o);
  if (!prompts.ok()) return prompts.status();
  TokenDriftPlanRequest request;
  request.reference = o.reference;
  request.candidates = o.candidates;
  request.target = o.target;
  request.candidate_target = o.candidate_target;
  request.prompt_texts = prompts.value().texts;
  request.random_prompts = o.random_prompts;
  request.max_tokens = o.max_tokens;
  request.seed = o.seed;
  request.prompts_description = prompts.value().description;
  request.prompt_source = o.random_prompts > 0 ? "random" : o.prompts_file.empty() ? "built-in" : "file";
  request.reference_row = o.reference_row;
  request.timeout_ms = o.timeout_ms;
  request.case_memory_mb = o.case_memory_mb;
  request.monitor = o.monitor;
  request.executable = executable;
  request.worker_args = o.worker_args;
  return request;
}

}  // namespace edgebench
