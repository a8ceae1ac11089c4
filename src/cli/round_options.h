// --rounds and --order, shared by run, llm and suite (docs/rounds.md).
#pragma once

#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/status.h"
#include "runner/rounds.h"

namespace edgebench {

struct RoundFlags {
  int rounds = 1;
  std::string order = "interleaved";
};

void AddRoundOptions(CLI::App* cmd, RoundFlags& flags);

// The plan run --rounds times in --order (runner/rounds.h); an error names the flag.
Result<std::vector<PlannedCase>> ApplyRoundFlags(const std::vector<PlannedCase>& plan, const RoundFlags& flags);

}  // namespace edgebench
