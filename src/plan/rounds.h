// --rounds N and --order (run, llm, suite; docs/rounds.md): every case of a plan runs N times,
// round by round, so that a drifting machine (frequency, temperature, neighbours) weighs on every
// target alike instead of on whichever ran last.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "plan/plan.h"

namespace edgebench {

inline constexpr int kMaxRounds = 1000;

struct RoundsSpec {
  int rounds = 1;
  std::string order = "interleaved";  // "interleaved" or "shuffled"
  uint64_t seed = 1;                  // shuffled: the seed of every round's order
};

// Parses --rounds and --order ("interleaved", "shuffled" or "shuffled:SEED"); the error names
// the flag and what to give.
Result<RoundsSpec> ParseRounds(int rounds, const std::string& order);

// The plan run `spec.rounds` times: round 1 runs every case once, then round 2, ...; each round
// in the plan's order (interleaved) or in its own order drawn from std::mt19937_64 seeded with
// seed + round (shuffled). Each case carries its RoundTag. One round returns the plan as it is.
// An error when the rounds would pass kMaxPlannedCases.
Result<std::vector<PlannedCase>> ExpandRounds(const std::vector<PlannedCase>& plan, const RoundsSpec& spec);

}  // namespace edgebench
