#include "cli/round_options.h"

namespace edgebench {

void AddRoundOptions(CLI::App* cmd, RoundFlags& flags) {
  const char* group = "Rounds (docs/rounds.md)";
  cmd->add_option("--rounds", flags.rounds,
                  "run every case N times, round by round, each its own record; the table then gives each "
                  "case's median and 95% interval across rounds and ranks the targets")
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--order", flags.order,
                  "interleaved (round 1 runs every case once, then round 2, ...) or shuffled[:SEED] (each round "
                  "in its own seeded random order; seed 1 unless given)")
      ->capture_default_str()
      ->group(group);
}

Result<std::vector<PlannedCase>> ApplyRoundFlags(const std::vector<PlannedCase>& plan, const RoundFlags& flags) {
  auto spec = ParseRounds(flags.rounds, flags.order);
  if (!spec.ok()) return spec.status();
  return ExpandRounds(plan, spec.value());
}

}  // namespace edgebench
