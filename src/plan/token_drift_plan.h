// What drift of GGUF language models runs (`edgebench drift` on .gguf files, a suite's `drift:`
// block on a GGUF model): llama-perplexity --kl-divergence's statistics (docs/drift.md,
// "Language models: per-token KL divergence"), planned from the sides, the prompts and the
// workers' limits. runner/token_drift_mode.h turns the request into cases.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/target.h"
#include "monitor/cooldown.h"
#include "record/monitor_record.h"

namespace edgebench {

struct TokenDriftOptions {
  std::string reference;                // GGUF path
  std::vector<std::string> candidates;  // GGUF paths, compared with the reference one by one
  Target target = {"llamacpp:cpu", "llamacpp", "cpu", {}};  // the reference's, and the candidates' unless below
  std::optional<Target> candidate_target;  // the candidates' (an accelerator against the CPU reference)
  // Prompts: a text file, one prompt per line (empty lines skipped); else `random_prompts`
  // seeded token sequences of max_tokens tokens when above 0; else a built-in set of English
  // sentences.
  std::string prompts_file;
  int64_t random_prompts = 0;
  int64_t max_tokens = 128;  // tokens per prompt; longer prompts are cut
  uint64_t seed = 0;         // of the random token sequences
  std::string format = "table";  // "table", or "json": one JSON object per candidate per line
  // Optional store directory: a record per side (scenario "drift", a `token_drift` section) in
  // DIR/results.jsonl, and one JSON line per candidate in DIR/token_drift.jsonl as before.
  std::string out_store;
  int64_t timeout_ms = 1800000;  // per worker
  int64_t case_memory_mb = 0;    // per worker; 0: 80% of physical memory
  // Compare the reference with itself first, as a row: its KLD must be 0 (a repeatable
  // evaluation); otherwise that row says how much drift is noise.
  bool reference_row = true;
  std::vector<std::string> worker_args;  // global flags for workers (WorkerLogArgs())
  // Through RunPlan, as every case: the store's case keys to skip (--resume), the monitor and
  // the cooldown.
  std::set<std::string> done_keys;
  MonitorSettings monitor;
  std::optional<CooldownSpec> cooldown;
};

struct TokenDriftPlanRequest {
  std::string reference;                // GGUF path
  std::vector<std::string> candidates;  // GGUF paths
  Target target;  // parsed from --target (a llamacpp one)
  // --candidate-target: where the candidates run (the reference stays on `target`); unset: `target`.
  std::optional<Target> candidate_target;
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

// The built-in prompts: a few varied English sentences.
const std::vector<std::string>& DefaultDriftPrompts();

// The planning request of `options`, checked (the models exist, the prompts read, the limits
// hold); an error says what is wrong. `executable`: the edgebench binary the workers run.
Result<TokenDriftPlanRequest> TokenDriftRequestFrom(const TokenDriftOptions& options, const std::string& executable);

}  // namespace edgebench
