// How often and how each case runs, shared by run, llm and suite: --rounds and --order
// (docs/rounds.md), --start (docs/cold-start.md).
#pragma once

#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/status.h"
#include "plan/rounds.h"
#include "plan/start_modes.h"

namespace edgebench {

struct RoundFlags {
  int rounds = 1;
  std::string order = "interleaved";
  std::string start;  // empty: not given
};

void AddRoundOptions(CLI::App* cmd, RoundFlags& flags);

// The plan with --start's cold and warm cases (plan/start_modes.h), run --rounds times in
// --order (plan/rounds.h); an error names the flag.
Result<std::vector<PlannedCase>> ApplyRoundFlags(const std::vector<PlannedCase>& plan, const RoundFlags& flags);

}  // namespace edgebench
