// A case over --rounds (docs/rounds.md): the median of its rounds' p50 and p99, a 95% interval
// across rounds, the run-to-run spread, and, for each model and scenario, its targets ranked
// with a verdict between neighbours by compare's rule run by run (stats/significance.h
// RunLevelRelativeChange and JudgeChange): "faster", "slower", or "not resolved at this noise".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"

namespace edgebench {

// One metric of a case, one value per VALID round (ms).
struct RoundsMetric {
  std::string name;  // "p50", "p99"; "tpot p50", "ttft p50" for language models
  std::vector<double> values;
  std::optional<double> median;
  // Student's t on the values' logarithms: the interval of their geometric mean (two rounds or
  // more, every value above 0).
  std::optional<double> ci_low, ci_high;
  std::optional<double> spread;  // sample standard deviation over the mean (two rounds or more)
};

struct CaseRounds {
  std::string case_key, model, target, scenario;
  int rounds = 0;    // as planned
  int measured = 0;  // rounds with a record of status ok
  int valid = 0;     // of those, VALID: the only ones in the figures
  std::string order;
  RoundsMetric first, second;  // p50 and p99 (tpot p50 and ttft p50 for language models)
};

inline constexpr const char* kNotResolved = "not resolved at this noise";

struct NeighbourVerdict {
  std::string verdict;  // "faster", "slower", "not resolved at this noise", or "not tested"
  std::optional<double> change, ci_low, ci_high, p;  // this case against the one ranked above it
  std::string note;  // why not tested

  bool not_resolved() const { return verdict == kNotResolved; }
  // "+8.5% [-9.6%, +30.2%], p 0.333" (p "<0.001" below that); for a tested verdict only.
  std::string ChangeText() const;
};

struct RoundsRanking {
  std::string model, scenario, metric;
  std::vector<size_t> cases;  // into RoundsSummary::cases, by median ascending
  // verdicts[i]: cases[i + 1] against cases[i].
  std::vector<NeighbourVerdict> verdicts;
};

struct RoundsSummary {
  std::vector<CaseRounds> cases;  // in the order their first round ran
  std::vector<RoundsRanking> rankings;  // each model and scenario with two targets or more
  double noise_threshold = 0.01;
  double alpha = 0.05;
};

// One metric's values across rounds: median, interval, spread.
RoundsMetric SummarizeRoundValues(const std::string& name, std::vector<double> values);

// `below` against `above` (values per round, ms) by compare's run-level rule.
NeighbourVerdict JudgeRounds(const std::vector<double>& above, const std::vector<double>& below,
                             double noise_threshold = 0.01, double alpha = 0.05);

// The records that carry a round tag; empty when none does (a command of one round).
RoundsSummary SummarizeRounds(const std::vector<Record>& records, double noise_threshold = 0.01,
                              double alpha = 0.05);

// The summary as text for the table format: the cases, the rankings and the rule.
std::string FormatRoundsSummary(const RoundsSummary& summary);

// The summary for the HTML report's "Across rounds" section; null when there is none.
nlohmann::json RoundsSummaryJson(const RoundsSummary& summary);

}  // namespace edgebench
