#include "plan/rounds.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace edgebench {

Result<RoundsSpec> ParseRounds(int rounds, const std::string& order) {
  RoundsSpec spec;
  if (rounds < 1 || rounds > kMaxRounds) {
    return Status::Error("--rounds " + std::to_string(rounds) + " is outside 1 to " + std::to_string(kMaxRounds));
  }
  spec.rounds = rounds;
  if (order.empty() || order == "interleaved") {
    spec.order = "interleaved";
  } else if (order == "shuffled" || order.rfind("shuffled:", 0) == 0) {
    spec.order = "shuffled";
    if (order.size() >= 9) {
      // "shuffled:" with nothing after it is refused: a seed left out by mistake is not seed 1.
      const std::string seed = order.substr(9);
      if (seed.empty() || seed.size() > 19 || seed.find_first_not_of("0123456789") != std::string::npos) {
        return Status::Error("--order '" + order + "': the seed after 'shuffled:' must be a whole number below 10^19 (or give "
                             "'shuffled' alone for seed 1)");
      }
      spec.seed = std::stoull(seed);
    }
  } else {
    return Status::Error("--order '" + order + "': give interleaved, shuffled or shuffled:SEED");
  }
  return spec;
}

Result<std::vector<PlannedCase>> ExpandRounds(const std::vector<PlannedCase>& plan, const RoundsSpec& spec) {
  if (spec.rounds <= 1) return plan;
  if (Status s = CheckCaseCount(static_cast<double>(plan.size()) * spec.rounds,
                                std::to_string(spec.rounds) + " rounds of the plan");
      !s.ok()) {
    return s;
  }
  std::vector<PlannedCase> expanded;
  expanded.reserve(plan.size() * static_cast<size_t>(spec.rounds));
  std::vector<size_t> order(plan.size());
  for (int round = 1; round <= spec.rounds; ++round) {
    std::iota(order.begin(), order.end(), size_t{0});
    if (spec.order == "shuffled") {
      std::mt19937_64 generator(spec.seed + static_cast<uint64_t>(round));
      // Fisher-Yates with the generator's own draws, so the order is the same on every library.
      for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[generator() % i]);
    }
    for (size_t position = 0; position < order.size(); ++position) {
      PlannedCase c = plan[order[position]];
      c.round = RoundTag{round, spec.rounds, spec.order, spec.order == "shuffled" ? spec.seed : 0,
                         static_cast<int>(position + 1)};
      expanded.push_back(std::move(c));
    }
  }
  return expanded;
}

}  // namespace edgebench
