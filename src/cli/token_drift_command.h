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
#include "plan/token_drift_plan.h"
#include "runner/token_drift_mode.h"

namespace edgebench {


// Runs the comparison and prints it on stdout (errors on stderr). Exit status: 0 when every
// candidate was compared, 1 when the reference or a candidate failed, 2 for bad options.
int RunTokenDrift(const TokenDriftOptions& options, CommandContext& context);

}  // namespace edgebench
