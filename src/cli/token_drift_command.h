// Per-token drift of quantized GGUF language models from a reference (`edgebench drift` on
// .gguf files, once wired): llama-perplexity --kl-divergence's statistics (docs/drift.md,
// "Language models: per-token KL divergence"). The reference and each candidate run in their
// own worker process; the reference's logits pass through a temporary file, removed at the end.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "monitor/cooldown.h"
#include "record/monitor_record.h"
#include "runner/token_drift_mode.h"

namespace edgebench {

struct TokenDriftOptions {
  std::string reference;                // GGUF path
  std::vector<std::string> candidates;  // GGUF paths, compared with the reference one by one
  std::string target = "llamacpp:cpu";  // the same for every model, options included
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

// The built-in prompts: a few varied English sentences.
const std::vector<std::string>& DefaultDriftPrompts();

// The planning request of `options`, checked (the models exist, the prompts read, the limits
// hold); an error says what is wrong. `executable`: the edgebench binary the workers run.
Result<TokenDriftPlanRequest> TokenDriftRequestFrom(const TokenDriftOptions& options, const std::string& executable);

// Runs the comparison and prints it on stdout (errors on stderr). Exit status: 0 when every
// candidate was compared, 1 when the reference or a candidate failed, 2 for bad options.
int RunTokenDrift(const TokenDriftOptions& options, CommandContext& context);

}  // namespace edgebench
