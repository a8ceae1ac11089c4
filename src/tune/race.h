// `edgebench tune`'s search: successive halving on confidence intervals (a racing algorithm,
// as in Maron and Moore's Hoeffding races and the F-race of irace). Every configuration gets a
// short measurement; one whose interval on the objective lies wholly on the worse side of the
// best's is dropped, as is one whose interval on a constrained metric lies wholly outside the
// bound; the survivors get twice the queries of the round before; the race ends when one
// configuration is left and measured to the precision asked for, when the survivors are tied
// within the tie tolerance, when the rounds or the budget run out. docs/tune.md states the rule
// and what it guarantees.
//
// This file is the search alone: what a measurement is (a worker case, a stored record, a
// simulated draw in the tests) is the caller's `Measure`, so the same rule runs live, replays a
// store and is tested on configurations of known latency.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "metrics/constraints.h"
#include "stats/confidence_interval.h"

namespace edgebench {

// What the race measures a configuration by.
struct RaceMetric {
  enum class Kind {
    kPercentile,  // a latency percentile of the pooled queries, ms (order-statistic interval)
    kMean,        // mean query latency, ms (Student's t)
    kThroughput,  // inferences/s: streams x batch x 1000 / mean latency in ms (t, inverted)
    kRecordValue, // a per-record value (energy per query): one observation per round (t)
  };
  Kind kind = Kind::kPercentile;
  double fraction = 0.99;  // kPercentile
  std::string name;        // "p99"
  std::string column;      // kRecordValue: the flat column (metrics/flat_record.h)
  Direction direction = Direction::kLower;
  std::string unit;        // "ms", "inferences/s", the column's unit
};

// "p50", "p90", "p99", "p99.9", "mean", "throughput", "energy", or a numeric flat column.
Result<RaceMetric> ParseRaceMetric(const std::string& name);
// The metric a recommend-style constraint ("p99<=20ms") bounds; its bound is in the column's
// unit, which is the metric's.
Result<RaceMetric> RaceMetricForConstraint(const Constraint& constraint);

struct RaceConstraint {
  Constraint constraint;
  RaceMetric metric;
};

struct RaceSettings {
  RaceMetric objective;
  std::vector<RaceConstraint> constraints;
  double confidence = 0.95;      // that the true best is never dropped
  int64_t initial_queries = 0;   // per configuration in round 0; round r measures this x 2^r
  int max_rounds = 5;
  double tie_tolerance = 0.01;   // survivors whose intervals all lie within this of each other tie
  // The final precision: the last configuration left is measured on, round after round, until
  // its interval's half-width is within this fraction of its estimate (0: stop as soon as one
  // is left). The exhaustive sweep this race is weighed against measures every configuration
  // with the winner's final query count.
  double precision = 0.05;
  int64_t budget_ns = 0;         // case time the race may spend (0: no budget)
  bool exhaustive = false;       // one round, nothing dropped: the sweep the race is checked against
};


// The confidence each interval is computed at: 1 - (1 - confidence) / (configurations x rounds
// x (1 + constraints)), Bonferroni over every interval the race may look at, so that all of
// them hold at once with the stated confidence, whatever round the race stops at.
double RaceIntervalAlpha(const RaceSettings& settings, size_t configurations);

// Round 0's queries when none are given: enough for a percentile's interval to be bounded on
// both sides at `alpha` (p99 at 95% over 12 configurations and 5 rounds: 1000), and 100 at least.
int64_t DefaultInitialQueries(const RaceMetric& objective, double alpha);

// One configuration in the race.
struct RaceEntrant {
  std::string label;
  double inferences_per_query = 1;  // batch x streams, for throughput
};

// One configuration's measurement in one round.
struct RaceObservation {
  bool ok = false;
  std::string failure;                 // when not ok: what happened, for people
  std::vector<int64_t> latencies_ns;   // measured queries
  std::map<std::string, double> record_values;  // flat columns a kRecordValue metric reads
  std::map<std::string, std::string> record_value_notes;  // why a column has no value
  int64_t measured_ns = 0;             // wall time of the measured phase
  int64_t case_ns = 0;                 // the case's time: load, inputs, prepare, warmup, measured
  std::vector<std::string> invalid_reasons;  // an INVALID verdict's reasons
  std::string record_id;
};

// Measures `entrants` (indexes) in `round` with `queries` queries each, one observation per
// entrant in order; nullopt stops the race (interrupted).
using RaceMeasure = std::function<std::optional<std::vector<RaceObservation>>(
    const std::vector<size_t>& entrants, int round, int64_t queries)>;

struct EntrantState {
  std::string label;
  bool alive = true;
  int dropped_round = -1;
  std::string drop_reason;
  int rounds_run = 0;
  int64_t queries = 0;
  int64_t measured_ns = 0;
  int64_t case_ns = 0;
  std::vector<int64_t> sorted_ns;  // every measured query so far
  std::vector<std::map<std::string, double>> record_values;  // per round
  std::string missing_value_note;  // why the objective or a constraint had no value
  Interval objective;
  std::vector<Interval> constraints;  // per settings.constraints
  // The objective on each round's queries alone: two rounds whose intervals do not overlap
  // mean the machine changed between them, which the pooled interval does not cover.
  std::vector<Interval> round_intervals;
  std::vector<std::string> notes;     // INVALID rounds, rounds that disagree
  std::vector<std::string> record_ids;
};

struct RoundEntrant {
  size_t entrant = 0;
  Interval objective;
  std::vector<Interval> constraints;
  bool dropped = false;
  std::string reason;
};

struct RaceRound {
  int round = 0;
  int64_t queries_each = 0;
  std::vector<RoundEntrant> entrants;  // those measured in the round
};

struct RaceResult {
  RaceSettings settings;
  double interval_alpha = 0;
  std::vector<EntrantState> entrants;
  std::vector<RaceRound> rounds;
  // "won" (the only survivor), "tied" (survivors within the tie tolerance), "rounds" (out of
  // rounds, survivors not separated), "budget", "interrupted", "infeasible" (no configuration
  // meets the constraints), "failed" (none could be measured), "unmeasured" (the objective has
  // no value: energy on a machine without a power sensor).
  std::string outcome;
  std::string outcome_text;  // for people
  std::optional<size_t> winner;
  std::optional<size_t> runner_up;
  // The runner-up's estimate against the winner's, relative (worse > 0), and whether their
  // intervals do not overlap. A runner-up that was dropped is weighed against the winner as the
  // winner stood in the round it was dropped: both measured in the same stretch of time.
  double margin = 0;
  bool separated = false;
  int runner_up_round = -1;  // the round the runner-up was dropped in; -1: still in the race
  std::vector<size_t> tied_with_winner;  // survivors whose intervals overlap the winner's
  std::vector<std::string> winner_caveats;
  std::optional<size_t> closest_infeasible;  // with outcome infeasible
  int64_t spent_case_ns = 0;
  int64_t spent_measured_ns = 0;
  int64_t final_queries = 0;  // the winner's queries (the survivors' most when there is none)
  // The exhaustive sweep at the same final precision: every configuration measured once with
  // final_queries, from each one's own per-query and per-case times.
  int64_t exhaustive_case_ns = 0;
  int64_t exhaustive_measured_ns = 0;
};

// Fails only on settings that cannot race (no entrants, no initial queries).
Result<RaceResult> RunRace(const RaceSettings& settings, const std::vector<RaceEntrant>& entrants,
                           const RaceMeasure& measure);

// A value of `metric` with its unit ("12.3 ms"), and an interval ("[11.9, 12.8] ms").
std::string FormatMetricValue(const RaceMetric& metric, double value);
std::string FormatInterval(const RaceMetric& metric, const Interval& interval);


}  // namespace edgebench
