// `edgebench drift` on GGUF language models as planned cases (scenario "drift"): the reference's
// run, which writes its logits to a scratch file, then the reference against itself (its KLD must
// be 0) and each candidate, each run by RunPlan through a token-drift mode in its own worker
// (worker/token_logits_case.h), answering a record with its `token_drift` section. So token drift
// gets resume by case key, cooldown, interrupts, progress, the device monitor beside each run and
// records in the store. When the reference's case is not run (resumed), the first candidate runs
// it again for its logits, without a record; a failed reference stops the plan.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "runner/case_mode.h"
#include "plan/plan.h"

namespace edgebench {

struct TokenDriftPlanRequest {
  std::string reference;                // GGUF path
  std::vector<std::string> candidates;  // GGUF paths
  Target target;  // parsed from --target (a llamacpp one)
  std::vector<std::string> prompt_texts;  // empty: random_prompts seeded sequences
  int64_t random_prompts = 0;
  int64_t max_tokens = 128;
  uint64_t seed = 0;
  std::string prompts_description;  // for people
  std::string prompt_source;        // "built-in", "file" or "random"
  bool reference_row = true;        // compare the reference with itself first
  int64_t timeout_ms = 1800000;
  int64_t case_memory_mb = 0;  // 0: DefaultCaseMemoryMb()
  MonitorSettings monitor;
  std::string executable;
  std::vector<std::string> worker_args;
};

// An error: the scratch directory for the logits could not be made.
Result<std::vector<PlannedCase>> PlanTokenDriftCases(const TokenDriftPlanRequest& request, const Registry& registry);

}  // namespace edgebench
