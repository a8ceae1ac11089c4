#include "cli/round_options.h"

namespace edgebench {

void AddRoundOptions(CLI::App* cmd, RoundFlags& flags) {
  const char* group = "Rounds and starts (docs/rounds.md, docs/cold-start.md)";
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
  cmd->add_option("--start", flags.start,
                  "cold: drop the model's files from the page cache before each load (verified, recorded) and "
                  "record load, first query and the first queries; warm: as usual, recorded; both: a cold case "
                  "then a warm one (docs/cold-start.md)")
      ->group(group);
}

Result<std::vector<PlannedCase>> ApplyRoundFlags(const std::vector<PlannedCase>& plan, const RoundFlags& flags) {
  auto spec = ParseRounds(flags.rounds, flags.order);
  if (!spec.ok()) return spec.status();
  auto started = ApplyStart(plan, flags.start);
  if (!started.ok()) return started.status();
  return ExpandRounds(started.value(), spec.value());
}

}  // namespace edgebench
