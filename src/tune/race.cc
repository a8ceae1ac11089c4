#include "tune/race.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace edgebench {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool Lower(const RaceMetric& metric) { return metric.direction == Direction::kLower; }

// `a` is better than `b` on the metric.
bool Better(const RaceMetric& metric, double a, double b) { return Lower(metric) ? a < b : a > b; }

// The interval's bound on the worse side (the pessimistic value) and on the better side.
double Pessimistic(const RaceMetric& metric, const Interval& i) { return Lower(metric) ? i.high : i.low; }
double Optimistic(const RaceMetric& metric, const Interval& i) { return Lower(metric) ? i.low : i.high; }

Interval MetricInterval(const RaceMetric& metric, const EntrantState& e, double inferences_per_query,
                        double alpha) {
  switch (metric.kind) {
    case RaceMetric::Kind::kPercentile: {
      Interval ns = QuantileInterval(e.sorted_ns, metric.fraction, alpha);
      return {ns.estimate / 1e6, ns.low / 1e6, ns.high / 1e6, ns.samples};
    }
    case RaceMetric::Kind::kMean:
    case RaceMetric::Kind::kThroughput: {
      std::vector<double> ms(e.sorted_ns.size());
      std::transform(e.sorted_ns.begin(), e.sorted_ns.end(), ms.begin(), [](int64_t v) { return v / 1e6; });
      Interval mean = MeanInterval(ms, alpha);
      if (metric.kind == RaceMetric::Kind::kMean) return mean;
      const auto rate = [&](double mean_ms) { return mean_ms > 0 ? inferences_per_query * 1000 / mean_ms : kInfinity; };
      return {rate(mean.estimate), rate(mean.high), mean.low > 0 ? rate(mean.low) : kInfinity, mean.samples};
    }
    case RaceMetric::Kind::kRecordValue: {
      std::vector<double> values;
      for (const auto& round : e.record_values) {
        auto it = round.find(metric.column);
        if (it != round.end()) values.push_back(it->second);
      }
      if (values.empty()) return {std::nan(""), -kInfinity, kInfinity, 0};
      return MeanInterval(values, alpha);
    }
  }
  return {};
}

// Whether `value` meets the constraint.
bool MeetsValue(const Constraint& c, double value) { return std::isfinite(value) && Meets(c, value); }

// The whole interval meets the constraint / the whole interval misses it.
bool SurelyMeets(const Constraint& c, const Interval& i) {
  return std::isfinite(i.low) && std::isfinite(i.high) && Meets(c, i.low) && Meets(c, i.high);
}
bool SurelyMisses(const Constraint& c, const Interval& i) {
  switch (c.comparison) {
    case BoundRelation::kAtMost: return i.low > c.bound;
    case BoundRelation::kBelow: return i.low >= c.bound;
    case BoundRelation::kAtLeast: return i.high < c.bound;
    case BoundRelation::kAbove: return i.high <= c.bound;
  }
  return false;
}

// How far a value misses the constraint, relative to its bound (0 when it meets it).
double Violation(const Constraint& c, double value) {
  if (!std::isfinite(value)) return kInfinity;
  if (Meets(c, value)) return 0;
  const double scale = c.bound != 0 ? std::abs(c.bound) : 1;
  return std::abs(value - c.bound) / scale;
}

std::string ShortNumber(double v) {
  std::ostringstream out;
  const double a = std::abs(v);
  out << std::fixed << std::setprecision(a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4) << v;
  return out.str();
}

bool Overlap(const Interval& a, const Interval& b) { return a.low <= b.high && b.low <= a.high; }

}  // namespace

Result<RaceMetric> ParseRaceMetric(const std::string& name) {
  auto objective = ParseObjective(name);
  if (!objective.ok()) return objective.status();
  RaceMetric metric;
  metric.name = objective.value().name;
  metric.column = objective.value().column;
  metric.direction = objective.value().direction;
  metric.unit = FlatUnitName(objective.value().unit);
  const Metric* measured = FindMetric(metric.column);
  const MetricSource source = measured ? measured->source : MetricSource::kLoad;
  if (measured && measured->percentile > 0) {
    metric.kind = RaceMetric::Kind::kPercentile;
    metric.fraction = measured->percentile;
  } else if (metric.column == "mean_ms") {
    metric.kind = RaceMetric::Kind::kMean;
  } else if (metric.column == "throughput_qps" || metric.column == "samples_per_s") {
    metric.kind = RaceMetric::Kind::kThroughput;
    metric.unit = "inferences/s";
  } else if (source == MetricSource::kLanguageModel || source == MetricSource::kAccuracy ||
             source == MetricSource::kDrift) {
    return Status::Error("'" + name + "' is not measured by a latency run; tune races p50, p90, p99, mean, "
                         "throughput, energy, power or memory");
  } else {
    metric.kind = RaceMetric::Kind::kRecordValue;
  }
  return metric;
}

Result<RaceMetric> RaceMetricForConstraint(const Constraint& constraint) {
  auto metric = ParseRaceMetric(constraint.column);
  if (!metric.ok()) return Status::Error("constraint '" + constraint.text + "': " + metric.error());
  if (metric.value().kind == RaceMetric::Kind::kThroughput && constraint.column == "throughput_qps") {
    // The race's throughput counts inferences, as its bound does.
    metric.value().name = "throughput";
  }
  return metric;
}

double RaceIntervalAlpha(const RaceSettings& settings, size_t configurations) {
  const double looks = static_cast<double>(std::max<size_t>(configurations, 1)) *
                       std::max(settings.exhaustive ? 1 : settings.max_rounds, 1) *
                       static_cast<double>(1 + settings.constraints.size());
  return (1 - settings.confidence) / looks;
}

int64_t DefaultInitialQueries(const RaceMetric& objective, double alpha) {
  int64_t queries = 100;
  if (objective.kind == RaceMetric::Kind::kPercentile) {
    const double q = objective.fraction;
    const int64_t needed = std::max(QuantileIntervalMinSamples(q, alpha), QuantileIntervalMinSamples(1 - q, alpha));
    queries = std::max<int64_t>(queries, needed + needed / 4);
  }
  return (queries + 49) / 50 * 50;
}

std::string FormatMetricValue(const RaceMetric& metric, double value) {
  if (!std::isfinite(value)) return value > 0 ? "unbounded" : value < 0 ? "unbounded" : "unmeasured";
  return ShortNumber(value) + " " + metric.unit;
}

std::string FormatInterval(const RaceMetric& metric, const Interval& i) {
  const auto bound = [](double v) { return std::isfinite(v) ? ShortNumber(v) : std::string(v > 0 ? "inf" : "-inf"); };
  return "[" + bound(i.low) + ", " + bound(i.high) + "] " + metric.unit;
}

namespace {

std::vector<size_t> Alive(const RaceResult& result) {
  std::vector<size_t> indexes;
  for (size_t i = 0; i < result.entrants.size(); ++i) {
    if (result.entrants[i].alive) indexes.push_back(i);
  }
  return indexes;
}

// The half-width of an interval relative to its estimate (infinite when unbounded).
double RelativeHalfWidth(const Interval& i) {
  return i.Bounded() && i.estimate != 0 ? (i.high - i.low) / 2 / std::abs(i.estimate) : kInfinity;
}

// Whether the round would pass the budget, from each survivor's own times so far (its per-case
// overhead and its time per query); if so, the race's outcome says so.
bool EndedByBudget(RaceResult& result, const std::vector<size_t>& running, int round, int64_t queries) {
  const RaceSettings& settings = result.settings;
  if (settings.budget_ns <= 0 || round == 0) return false;
  int64_t estimate = 0;
  for (size_t i : running) {
    const EntrantState& e = result.entrants[i];
    const double per_query = e.queries > 0 ? static_cast<double>(e.measured_ns) / e.queries : 0;
    const double overhead = e.rounds_run > 0 ? static_cast<double>(e.case_ns - e.measured_ns) / e.rounds_run : 0;
    estimate += static_cast<int64_t>(overhead + per_query * static_cast<double>(queries));
  }
  if (result.spent_case_ns + estimate <= settings.budget_ns) return false;
  result.outcome = "budget";
  result.outcome_text = "the budget ends before round " + std::to_string(round) + " (it would take about " +
                        ShortNumber(estimate / 1e9) + " s more, " + ShortNumber(result.spent_case_ns / 1e9) + " s of " +
                        ShortNumber(settings.budget_ns / 1e9) + " s spent)";
  return true;
}

// The round's observations taken into each entrant's state: its times, its pooled and own-round
// intervals, or its drop when it could not be measured.
RaceRound TakeObservations(RaceResult& result, const std::vector<RaceEntrant>& entrants,
                           const std::vector<size_t>& running, int round, int64_t queries,
                           std::vector<RaceObservation>& observations) {
  const RaceSettings& settings = result.settings;
  const RaceMetric& objective = settings.objective;
  const double alpha = result.interval_alpha;
  RaceRound snapshot;
  snapshot.round = round;
  snapshot.queries_each = queries;
  for (size_t k = 0; k < running.size() && k < observations.size(); ++k) {
    const size_t i = running[k];
    EntrantState& e = result.entrants[i];
    RaceObservation& o = observations[k];
    result.spent_case_ns += o.case_ns;
    result.spent_measured_ns += o.measured_ns;
    e.case_ns += o.case_ns;
    e.measured_ns += o.measured_ns;
    ++e.rounds_run;
    if (!o.record_id.empty()) e.record_ids.push_back(o.record_id);
    RoundEntrant entry;
    entry.entrant = i;
    if (!o.ok) {
      e.alive = false;
      e.dropped_round = round;
      e.drop_reason = "not measured in round " + std::to_string(round) + ": " + o.failure;
      entry.dropped = true;
      entry.reason = e.drop_reason;
      snapshot.entrants.push_back(std::move(entry));
      continue;
    }
    if (!o.invalid_reasons.empty()) {
      std::string reasons;
      for (const std::string& r : o.invalid_reasons) reasons += (reasons.empty() ? "" : "; ") + r;
      e.notes.push_back("round " + std::to_string(round) + " INVALID: " + reasons);
    }
    e.queries += static_cast<int64_t>(o.latencies_ns.size());
    std::sort(o.latencies_ns.begin(), o.latencies_ns.end());
    if (objective.kind != RaceMetric::Kind::kRecordValue) {
      EntrantState round_alone;
      round_alone.sorted_ns = o.latencies_ns;
      e.round_intervals.push_back(MetricInterval(objective, round_alone, entrants[i].inferences_per_query, alpha));
    }
    const auto middle = static_cast<std::ptrdiff_t>(e.sorted_ns.size());
    e.sorted_ns.insert(e.sorted_ns.end(), o.latencies_ns.begin(), o.latencies_ns.end());
    std::inplace_merge(e.sorted_ns.begin(), e.sorted_ns.begin() + middle, e.sorted_ns.end());
    e.record_values.push_back(o.record_values);
    for (const auto& [column, note] : o.record_value_notes) {
      if (e.missing_value_note.empty()) e.missing_value_note = column + ": " + note;
    }
    e.objective = MetricInterval(objective, e, entrants[i].inferences_per_query, alpha);
    e.constraints.clear();
    for (const RaceConstraint& c : settings.constraints) {
      e.constraints.push_back(MetricInterval(c.metric, e, entrants[i].inferences_per_query, alpha));
    }
    entry.objective = e.objective;
    entry.constraints = e.constraints;
    snapshot.entrants.push_back(std::move(entry));
  }
  return snapshot;
}

// Drops, after a round, every configuration that surely misses a constraint, and every one whose
// objective is surely worse than the pessimistic bound of the best that surely meets them all.
void DropTheSurelyBeaten(RaceResult& result, RaceRound& snapshot) {
  const RaceSettings& settings = result.settings;
  const RaceMetric& objective = settings.objective;
  const int round = snapshot.round;
  auto drop = [&](size_t i, const std::string& reason) {
    EntrantState& e = result.entrants[i];
    e.alive = false;
    e.dropped_round = round;
    e.drop_reason = reason;
    for (RoundEntrant& r : snapshot.entrants) {
      if (r.entrant != i) continue;
      r.dropped = true;
      r.reason = reason;
      break;
    }
  };
  // Constraints: an interval wholly outside the bound.
  for (size_t i : Alive(result)) {
    const EntrantState& e = result.entrants[i];
    for (size_t c = 0; c < settings.constraints.size(); ++c) {
      const RaceConstraint& rc = settings.constraints[c];
      if (SurelyMisses(rc.constraint, e.constraints[c])) {
        drop(i, "misses " + rc.constraint.text + ": " + rc.metric.name + " " +
                    FormatInterval(rc.metric, e.constraints[c]) + " in round " + std::to_string(round));
        break;
      }
    }
  }
  // The objective: an interval wholly worse than the pessimistic bound of the best
  // configuration that surely meets every constraint.
  std::optional<size_t> best;
  for (size_t i : Alive(result)) {
    const EntrantState& e = result.entrants[i];
    bool feasible = std::isfinite(Pessimistic(objective, e.objective));
    for (size_t c = 0; c < settings.constraints.size() && feasible; ++c) {
      feasible = SurelyMeets(settings.constraints[c].constraint, e.constraints[c]);
    }
    if (feasible && (!best || Better(objective, Pessimistic(objective, e.objective),
                                     Pessimistic(objective, result.entrants[*best].objective)))) {
      best = i;
    }
  }
  if (!best) return;
  const EntrantState& b = result.entrants[*best];
  const double line = Pessimistic(objective, b.objective);
  for (size_t i : Alive(result)) {
    if (i == *best) continue;
    const EntrantState& e = result.entrants[i];
    if (Better(objective, line, Optimistic(objective, e.objective))) {
      drop(i, "worse than " + b.label + " in round " + std::to_string(round) + ": " + objective.name + " " +
                  FormatInterval(objective, e.objective) + " against " + FormatInterval(objective, b.objective));
    }
  }
}

// Whether the race is decided after `round`: one configuration left (measured to the precision
// asked for, if any), or the survivors tied. `alone_since`: the round after which one was left.
bool Decided(RaceResult& result, int round, int& alone_since) {
  const RaceSettings& settings = result.settings;
  const RaceMetric& objective = settings.objective;
  const std::vector<size_t> left = Alive(result);
  if (left.size() == 1) {
    if (alone_since < 0) alone_since = round;
    const double half = RelativeHalfWidth(result.entrants[left[0]].objective);
    if (!(half <= settings.precision || settings.precision <= 0)) return false;
    result.outcome = "won";
    result.outcome_text = "the only configuration left after round " + std::to_string(alone_since) +
                          (settings.precision > 0 ? ", measured to +-" + ShortNumber(half * 100) + "% (precision " +
                                                        ShortNumber(settings.precision * 100) + "%) by round " +
                                                        std::to_string(round)
                                                  : std::string());
    return true;
  }
  if (left.size() < 2) return false;
  // Tied: every survivor's interval bounded, and all of them within the tolerance of each
  // other, with every constraint surely met.
  double lowest = kInfinity, highest = -kInfinity;
  bool tie = true;
  for (size_t i : left) {
    const EntrantState& e = result.entrants[i];
    tie = tie && e.objective.Bounded() && e.objective.low > 0;
    for (size_t c = 0; c < settings.constraints.size() && tie; ++c) {
      tie = SurelyMeets(settings.constraints[c].constraint, e.constraints[c]);
    }
    lowest = std::min(lowest, e.objective.low);
    highest = std::max(highest, e.objective.high);
  }
  if (!(tie && highest / lowest - 1 <= settings.tie_tolerance)) return false;
  result.outcome = "tied";
  result.outcome_text = std::to_string(left.size()) + " configurations left after round " + std::to_string(round) +
                        " lie within " + ShortNumber(settings.tie_tolerance * 100) + "% of each other: " +
                        objective.name + " in [" + ShortNumber(lowest) + ", " + ShortNumber(highest) + "] " +
                        objective.unit;
  return true;
}

// The outcome of a race that ran all its rounds undecided.
void OutOfRounds(RaceResult& result, int rounds, int alone_since, const std::vector<size_t>& left) {
  const RaceSettings& settings = result.settings;
  if (!result.outcome.empty()) return;
  if (left.size() == 1 && alone_since >= 0) {
    result.outcome = "won";
    result.outcome_text = "the only configuration left after round " + std::to_string(alone_since) +
                          "; measured to +-" + ShortNumber(RelativeHalfWidth(result.entrants[left[0]].objective) * 100) +
                          "% after " + std::to_string(rounds) + " rounds, short of the precision asked for (" +
                          ShortNumber(settings.precision * 100) + "%; more --rounds would measure on)";
  } else if (settings.exhaustive) {
    result.outcome = "exhaustive";
    result.outcome_text = "every configuration measured with " + std::to_string(settings.initial_queries) + " queries";
  } else {
    result.outcome = "rounds";
    result.outcome_text = std::to_string(left.size()) + " configurations left after " + std::to_string(rounds) +
                          " rounds, not separated at the confidence asked for (more --rounds would measure on)";
  }
}

// Among `left`, those that meet every constraint by their estimate, best estimate first.
std::vector<size_t> Candidates(const RaceResult& result, const std::vector<size_t>& left) {
  const RaceSettings& settings = result.settings;
  std::vector<size_t> candidates;
  for (size_t i : left) {
    const EntrantState& e = result.entrants[i];
    bool meets = std::isfinite(e.objective.estimate);
    for (size_t c = 0; c < settings.constraints.size() && meets; ++c) {
      meets = MeetsValue(settings.constraints[c].constraint, e.constraints[c].estimate);
    }
    if (meets) candidates.push_back(i);
  }
  std::sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
    return Better(settings.objective, result.entrants[a].objective.estimate, result.entrants[b].objective.estimate);
  });
  return candidates;
}

// A race with no candidate: nothing measured, the objective without a value, or no
// configuration meeting the constraints (and the one closest to meeting them).
void NoCandidate(RaceResult& result, bool any_measured) {
  const RaceSettings& settings = result.settings;
  if (!any_measured) {
    if (result.outcome != "interrupted") {
      result.outcome = "failed";
      result.outcome_text = "no configuration could be measured";
    }
    return;
  }
  bool unmeasured = true;
  for (const EntrantState& e : result.entrants) {
    unmeasured = unmeasured && (e.queries == 0 || !std::isfinite(e.objective.estimate));
  }
  if (unmeasured) {
    std::string why;
    for (const EntrantState& e : result.entrants) {
      if (why.empty()) why = e.missing_value_note;
    }
    result.outcome = "unmeasured";
    result.outcome_text = settings.objective.name + " was not measured for any configuration" +
                          (why.empty() ? std::string() : " (" + why + ")");
    return;
  }
  if (result.outcome == "interrupted") return;
  // The configuration closest to meeting the constraints, among all measured.
  double closest = kInfinity;
  for (size_t i = 0; i < result.entrants.size(); ++i) {
    const EntrantState& e = result.entrants[i];
    if (e.queries == 0) continue;
    double violation = 0;
    for (size_t c = 0; c < settings.constraints.size(); ++c) {
      violation = std::max(violation, Violation(settings.constraints[c].constraint, e.constraints[c].estimate));
    }
    if (violation < closest) {
      closest = violation;
      result.closest_infeasible = i;
    }
  }
  std::string texts;
  for (const RaceConstraint& c : settings.constraints) texts += (texts.empty() ? "" : ", ") + c.constraint.text;
  result.outcome = "infeasible";
  result.outcome_text = "no configuration meets " + texts;
}

// What a reader must know about the winner: constraints met only by the estimate, INVALID
// rounds, and rounds that disagree beyond its interval.
void WinnerCaveats(RaceResult& result) {
  const RaceSettings& settings = result.settings;
  const RaceMetric& objective = settings.objective;
  const EntrantState& w = result.entrants[*result.winner];
  for (size_t c = 0; c < settings.constraints.size(); ++c) {
    if (!SurelyMeets(settings.constraints[c].constraint, w.constraints[c])) {
      result.winner_caveats.push_back("meets " + settings.constraints[c].constraint.text + " by its estimate (" +
                                      FormatMetricValue(settings.constraints[c].metric, w.constraints[c].estimate) +
                                      ") but its interval " +
                                      FormatInterval(settings.constraints[c].metric, w.constraints[c]) +
                                      " reaches past the bound");
    }
  }
  for (const std::string& note : w.notes) result.winner_caveats.push_back(note);
  // Rounds that disagree: two rounds whose own intervals do not overlap.
  if (w.round_intervals.size() < 2) return;
  bool disagree = false;
  std::string estimates;
  for (size_t a = 0; a < w.round_intervals.size(); ++a) {
    for (size_t b = a + 1; b < w.round_intervals.size(); ++b) {
      disagree = disagree || !Overlap(w.round_intervals[a], w.round_intervals[b]);
    }
    estimates += (estimates.empty() ? "" : ", ") + ShortNumber(w.round_intervals[a].estimate);
  }
  if (disagree) {
    result.winner_caveats.push_back(
        "its rounds disagree beyond its interval (" + objective.name + " by round: " + estimates + " " +
        objective.unit + "): the machine changed between rounds (frequency, heat, other load), which the "
        "intervals, made of query-to-query noise, do not cover; configurations measured at other times may "
        "have been judged against a different machine. Run the race again, or measure the finalists in "
        "several runs and compare the stores (edgebench compare)");
  }
}

// The winner's ties, its runner-up (the next candidate, else the last one dropped, best estimate
// first among those of the latest round) and the margin between them, each as measured in the
// same stretch of time.
void RunnerUp(RaceResult& result, const std::vector<size_t>& candidates) {
  const RaceMetric& objective = result.settings.objective;
  const EntrantState& w = result.entrants[*result.winner];
  for (size_t k = 1; k < candidates.size(); ++k) {
    if (Overlap(result.entrants[candidates[k]].objective, w.objective)) result.tied_with_winner.push_back(candidates[k]);
  }
  if (candidates.size() > 1) {
    result.runner_up = candidates[1];
  } else {
    for (size_t i = 0; i < result.entrants.size(); ++i) {
      const EntrantState& e = result.entrants[i];
      if (i == *result.winner || e.queries == 0 || !std::isfinite(e.objective.estimate)) continue;
      if (!result.runner_up) {
        result.runner_up = i;
        continue;
      }
      const EntrantState& r = result.entrants[*result.runner_up];
      if (e.dropped_round > r.dropped_round ||
          (e.dropped_round == r.dropped_round && Better(objective, e.objective.estimate, r.objective.estimate))) {
        result.runner_up = i;
      }
    }
  }
  if (!result.runner_up) return;
  const EntrantState& r = result.entrants[*result.runner_up];
  Interval winner_then = w.objective;
  if (!r.alive && r.dropped_round >= 0 && r.dropped_round < static_cast<int>(result.rounds.size())) {
    result.runner_up_round = r.dropped_round;
    for (const RoundEntrant& e : result.rounds[r.dropped_round].entrants) {
      if (e.entrant == *result.winner) winner_then = e.objective;
    }
  }
  result.margin = Lower(objective) ? r.objective.estimate / winner_then.estimate - 1
                                   : 1 - r.objective.estimate / winner_then.estimate;
  result.separated = !Overlap(r.objective, winner_then);
}

// The final precision (the winner's queries, else the survivors' most) and what the exhaustive
// sweep would have cost at it, from each configuration's own per-query and per-case times.
void ExhaustiveCost(RaceResult& result, const std::vector<size_t>& left) {
  if (result.winner) {
    result.final_queries = result.entrants[*result.winner].queries;
  } else {
    for (size_t i : left) result.final_queries = std::max(result.final_queries, result.entrants[i].queries);
  }
  for (const EntrantState& e : result.entrants) {
    if (e.queries == 0) {  // failed: the sweep would pay its attempt too
      result.exhaustive_case_ns += e.case_ns;
      continue;
    }
    const double per_query = static_cast<double>(e.measured_ns) / static_cast<double>(e.queries);
    const double overhead = static_cast<double>(e.case_ns - e.measured_ns) / std::max(e.rounds_run, 1);
    const double measured = per_query * static_cast<double>(result.final_queries);
    result.exhaustive_measured_ns += static_cast<int64_t>(measured);
    result.exhaustive_case_ns += static_cast<int64_t>(overhead + measured);
  }
}

}  // namespace

Result<RaceResult> RunRace(const RaceSettings& settings, const std::vector<RaceEntrant>& entrants,
                           const RaceMeasure& measure) {
  if (entrants.empty()) return Status::Error("no configuration to race");
  if (settings.initial_queries <= 0) return Status::Error("the race needs at least one query per configuration");
  if (!(settings.confidence > 0 && settings.confidence < 1)) {
    return Status::Error("confidence must lie between 0 and 1");
  }
  RaceResult result;
  result.settings = settings;
  result.interval_alpha = RaceIntervalAlpha(settings, entrants.size());
  for (const RaceEntrant& e : entrants) {
    EntrantState state;
    state.label = e.label;
    result.entrants.push_back(std::move(state));
  }
  const int rounds = settings.exhaustive ? 1 : settings.max_rounds;
  int alone_since = -1;  // the round after which one configuration was left
  for (int round = 0; round < rounds; ++round) {
    const std::vector<size_t> running = Alive(result);
    if (running.empty()) break;
    const int64_t queries = settings.initial_queries << round;
    if (EndedByBudget(result, running, round, queries)) break;
    auto observations = measure(running, round, queries);
    if (!observations) {
      result.outcome = "interrupted";
      result.outcome_text = "interrupted in round " + std::to_string(round) + "; every record so far is stored";
      break;
    }
    RaceRound snapshot = TakeObservations(result, entrants, running, round, queries, *observations);
    if (!settings.exhaustive) DropTheSurelyBeaten(result, snapshot);
    result.rounds.push_back(std::move(snapshot));
    if (settings.exhaustive || Decided(result, round, alone_since)) break;
  }

  // The answer: among survivors (all of them in the exhaustive sweep), the best estimate that
  // meets every constraint by its estimate. An interrupted race has no answer yet: its survivors
  // were not measured to the end.
  std::vector<size_t> left = Alive(result);
  OutOfRounds(result, rounds, alone_since, left);
  if (result.outcome == "interrupted") left.clear();
  bool any_measured = false;
  for (const EntrantState& e : result.entrants) any_measured = any_measured || e.queries > 0;
  const std::vector<size_t> candidates = Candidates(result, left);
  if (!any_measured || candidates.empty()) {
    NoCandidate(result, any_measured);
  } else {
    result.winner = candidates[0];
    WinnerCaveats(result);
    RunnerUp(result, candidates);
  }
  ExhaustiveCost(result, left);
  return result;
}

}  // namespace edgebench
