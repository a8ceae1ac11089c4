// The race on configurations of known latency: the null backend's own latency model
// (NullRunMicroseconds: a fixed time plus exponential noise of known mean), drawn without
// sleeping, so a hundred seeded races take a second and every configuration's true p99 and mean
// are known exactly.
#include "tune/race.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "../test_util.h"
#include "backends/null/null_backend.h"
#include "tune/race_records.h"
#include "tune/race_json.h"

namespace edgebench {
namespace {

struct KnownLatency {
  int64_t us;
  int64_t jitter_us;
  double TrueQuantileUs(double q) const { return us + jitter_us * -std::log(1 - q); }
  double TrueMeanUs() const { return static_cast<double>(us + jitter_us); }
};

// Twelve configurations: the best (p99 1460.5 us, mean 1100 us), four within 0.7-1.5% of its
// p99 (1010/100, 1005/102, 1250/50, 1020/100), the rest further off.
const std::vector<KnownLatency> kTwelve = {
    {1000, 100}, {1005, 102}, {1020, 100}, {990, 120}, {1100, 100}, {1250, 50},
    {1300, 200}, {1500, 100}, {2000, 300}, {1050, 150}, {3000, 100}, {1010, 100},
};

RaceMetric Metric(const std::string& name) {
  auto metric = ParseRaceMetric(name);
  EXPECT_TRUE(metric.ok()) << metric.error();
  return metric.value();
}

std::vector<RaceEntrant> Entrants(const std::vector<KnownLatency>& configs) {
  std::vector<RaceEntrant> entrants;
  for (const KnownLatency& c : configs) {
    entrants.push_back({"us=" + std::to_string(c.us) + " jitter_us=" + std::to_string(c.jitter_us), 1});
  }
  return entrants;
}

// Draws round `round` of each entrant: independent draws per (trial, entrant, round), as each
// round is a fresh worker with its own noise seed.
RaceMeasure Simulated(const std::vector<KnownLatency>& configs, uint64_t trial, std::vector<int>* failing = nullptr) {
  return [configs, trial, failing](const std::vector<size_t>& entrants, int round,
                                   int64_t queries) -> std::optional<std::vector<RaceObservation>> {
    std::vector<RaceObservation> observations;
    for (size_t e : entrants) {
      RaceObservation o;
      if (failing && std::find(failing->begin(), failing->end(), static_cast<int>(e)) != failing->end()) {
        o.failure = "crashed at run: worker killed by signal 6";
        o.case_ns = 100'000'000;
        observations.push_back(o);
        continue;
      }
      o.ok = true;
      const uint64_t seed = trial * 1'000'003 + e * 101 + static_cast<uint64_t>(round);
      for (int64_t run = 1; run <= queries; ++run) {
        const int64_t us = NullRunMicroseconds(configs[e].us, configs[e].jitter_us, seed, static_cast<uint64_t>(run));
        o.latencies_ns.push_back(us * 1000);
        o.measured_ns += us * 1000;
      }
      o.case_ns = o.measured_ns + 200'000'000;  // load, inputs and warmup
      observations.push_back(o);
    }
    return observations;
  };
}

size_t TrueBest(const std::vector<KnownLatency>& configs, const std::function<double(const KnownLatency&)>& value) {
  size_t best = 0;
  for (size_t i = 1; i < configs.size(); ++i) {
    if (value(configs[i]) < value(configs[best])) best = i;
  }
  return best;
}

struct TrialCounts {
  int best_kept = 0;            // the true best was never dropped
  int winner_best_or_tied = 0;  // the answer is the true best, or shown tied with it
};

TrialCounts RunTrials(const RaceSettings& settings, const std::vector<KnownLatency>& configs, size_t true_best,
                      int trials) {
  TrialCounts counts;
  for (int trial = 0; trial < trials; ++trial) {
    auto result = RunRace(settings, Entrants(configs), Simulated(configs, static_cast<uint64_t>(trial)));
    EXPECT_TRUE(result.ok());
    const RaceResult& r = result.value();
    counts.best_kept += r.entrants[true_best].alive;
    const auto& tied = r.tied_with_winner;
    counts.winner_best_or_tied +=
        r.winner && (*r.winner == true_best || std::find(tied.begin(), tied.end(), true_best) != tied.end());
  }
  std::printf("%s: the true best kept in %d of %d races, the winner or tied with it in %d\n",
              settings.objective.name.c_str(), counts.best_kept, trials, counts.winner_best_or_tied);
  return counts;
}

TEST(Race, NeverDropsTheTrueBestP99In95Of100SeededTrials) {
  RaceSettings settings;
  settings.objective = Metric("p99");
  settings.initial_queries = DefaultInitialQueries(settings.objective, RaceIntervalAlpha(settings, kTwelve.size()));
  EXPECT_EQ(settings.initial_queries, 1000);
  const size_t best = TrueBest(kTwelve, [](const KnownLatency& c) { return c.TrueQuantileUs(0.99); });
  EXPECT_EQ(best, 0u);
  const TrialCounts counts = RunTrials(settings, kTwelve, best, 100);
  EXPECT_GE(counts.best_kept, 95);
  EXPECT_GE(counts.winner_best_or_tied, 95);
}

// Six configurations within 1% of each other, of the same noise: which one's interval looks
// best is chance in every round, and only a rule that compares bounds, not estimates, keeps the
// true best.
TEST(Race, NeverDropsTheTrueBestAmongNearTiesIn95Of100SeededTrials) {
  const std::vector<KnownLatency> near = {{1000, 100}, {1002, 100}, {1004, 100}, {1006, 100}, {1008, 100},
                                          {1010, 100}, {1200, 100}, {1400, 100}};
  RaceSettings settings;
  settings.objective = Metric("p50");
  settings.initial_queries = 200;
  settings.max_rounds = 4;
  const TrialCounts counts = RunTrials(settings, near, 0, 100);
  EXPECT_GE(counts.best_kept, 95);
  EXPECT_GE(counts.winner_best_or_tied, 95);
}

TEST(Race, NeverDropsTheTrueBestMeanIn95Of100SeededTrials) {
  RaceSettings settings;
  settings.objective = Metric("mean");
  settings.initial_queries = 200;
  const size_t best = TrueBest(kTwelve, [](const KnownLatency& c) { return c.TrueMeanUs(); });
  const TrialCounts counts = RunTrials(settings, kTwelve, best, 100);
  EXPECT_GE(counts.best_kept, 95);
  EXPECT_GE(counts.winner_best_or_tied, 95);
}

// Throughput under a p99 bound that the fastest-on-average configuration misses: the best
// feasible one must be kept.
TEST(Race, KeepsTheBestFeasibleUnderAConstraintIn95Of100SeededTrials) {
  const std::vector<KnownLatency> configs = {
      {900, 400},   // mean 1300, p99 2742: fastest on average, misses p99<=2ms
      {1000, 200},  // mean 1200 (best), p99 1921: meets it
      {1100, 150},  // mean 1250, p99 1791
      {1050, 180},  // mean 1230, p99 1879
      {1500, 100},  // mean 1600
      {1000, 260},  // mean 1260, p99 2197: misses
  };
  RaceSettings settings;
  settings.objective = Metric("throughput");
  auto constraint = ParseConstraint("p99<=2ms");
  ASSERT_TRUE(constraint.ok());
  settings.constraints.push_back({constraint.value(), RaceMetricForConstraint(constraint.value()).value()});
  settings.initial_queries = 1000;
  const TrialCounts counts = RunTrials(settings, configs, 1, 100);
  EXPECT_GE(counts.best_kept, 95);
  EXPECT_GE(counts.winner_best_or_tied, 95);
  auto one = RunRace(settings, Entrants(configs), Simulated(configs, 1));
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(one.value().entrants[0].alive);
  EXPECT_NE(one.value().entrants[0].drop_reason.find("misses p99<=2ms"), std::string::npos)
      << one.value().entrants[0].drop_reason;
}

// Twelve configurations of which one is 2.7% behind the best and the rest 7% or more: the race
// measures the two close ones long and the rest once, so it costs a fraction of the sweep. (Over
// kTwelve, with four within 1.5% of the best, five configurations run all five rounds and the
// race costs 37% of the sweep: what a race saves depends on how many rivals are close.)
const std::vector<KnownLatency> kSpread = {
    {1000, 100}, {1040, 100}, {1100, 100}, {1300, 100}, {1500, 100}, {2000, 100},
    {1200, 200}, {900, 400},  {1000, 300}, {3000, 100}, {1250, 100}, {1150, 150},
};

TEST(Race, SpendsAFractionOfTheExhaustiveSweep) {
  RaceSettings settings;
  settings.objective = Metric("p99");
  settings.initial_queries = 1000;
  auto result = RunRace(settings, Entrants(kSpread), Simulated(kSpread, 42));
  ASSERT_TRUE(result.ok());
  const RaceResult& r = result.value();
  ASSERT_TRUE(r.winner.has_value()) << r.outcome_text;
  EXPECT_GT(r.final_queries, settings.initial_queries);
  EXPECT_GT(r.exhaustive_measured_ns, 0);
  EXPECT_LT(r.spent_measured_ns, r.exhaustive_measured_ns / 4) << RaceResultToJson(r).dump(1);
  EXPECT_EQ(*r.winner, 0u);
  // Far-off configurations are out after round 0, with the reason.
  EXPECT_FALSE(r.entrants[9].alive);
  EXPECT_EQ(r.entrants[9].dropped_round, 0);
  EXPECT_NE(r.entrants[9].drop_reason.find("worse than"), std::string::npos);
}

// A machine that changes between rounds (the winner 20% slower after round 0, as a shared host
// throttling does): the intervals cover query-to-query noise only, and the answer says so.
TEST(Race, RoundsThatDisagreeAreACaveatOnTheWinner) {
  const std::vector<KnownLatency> configs = {{1000, 50}, {2000, 50}, {3000, 50}};
  RaceSettings settings;
  settings.objective = Metric("p50");
  settings.initial_queries = 200;
  settings.precision = 0.001;  // the winner is measured on, round after round
  auto steady = Simulated(configs, 4);
  auto drifting = [&](const std::vector<size_t>& entrants, int round, int64_t queries) {
    std::vector<KnownLatency> now = configs;
    if (round > 0) now[0].us = 1200;
    return Simulated(now, 4)(entrants, round, queries);
  };
  auto drifted = RunRace(settings, Entrants(configs), drifting);
  ASSERT_TRUE(drifted.ok());
  ASSERT_EQ(drifted.value().winner, std::optional<size_t>(0));
  std::string caveats;
  for (const std::string& c : drifted.value().winner_caveats) caveats += c + "\n";
  EXPECT_NE(caveats.find("its rounds disagree beyond its interval"), std::string::npos) << caveats;
  // The runner-up, dropped in round 0, is weighed against the winner of round 0 (p50s of
  // 2034.7 and 1034.7 us), not against the slower winner of the later rounds.
  EXPECT_EQ(drifted.value().runner_up, std::optional<size_t>(1));
  EXPECT_EQ(drifted.value().runner_up_round, 0);
  EXPECT_NEAR(drifted.value().margin, 2034.7 / 1034.7 - 1, 0.02);
  EXPECT_TRUE(drifted.value().separated);
  auto calm = RunRace(settings, Entrants(configs), steady);
  ASSERT_TRUE(calm.ok());
  EXPECT_TRUE(calm.value().winner_caveats.empty()) << calm.value().winner_caveats[0];
}

TEST(Race, AConstraintNoConfigurationMeetsGivesNoWinnerButTheClosest) {
  RaceSettings settings;
  settings.objective = Metric("p50");
  auto constraint = ParseConstraint("p99<=0.5ms");
  ASSERT_TRUE(constraint.ok());
  settings.constraints.push_back({constraint.value(), RaceMetricForConstraint(constraint.value()).value()});
  settings.initial_queries = 950;
  auto result = RunRace(settings, Entrants(kTwelve), Simulated(kTwelve, 3));
  ASSERT_TRUE(result.ok());
  const RaceResult& r = result.value();
  EXPECT_FALSE(r.winner.has_value());
  EXPECT_EQ(r.outcome, "infeasible");
  EXPECT_NE(r.outcome_text.find("no configuration meets p99<=0.5ms"), std::string::npos);
  ASSERT_TRUE(r.closest_infeasible.has_value());
  EXPECT_EQ(*r.closest_infeasible, 0u);  // 1000 + 100 x 4.6: the smallest p99
  for (const EntrantState& e : r.entrants) {
    EXPECT_FALSE(e.alive);
    EXPECT_NE(e.drop_reason.find("misses p99<=0.5ms"), std::string::npos) << e.drop_reason;
  }
}

TEST(Race, AFailingConfigurationIsDroppedWithItsReason) {
  RaceSettings settings;
  settings.objective = Metric("p50");
  settings.initial_queries = 100;
  std::vector<int> failing = {0};
  auto result = RunRace(settings, Entrants(kTwelve), Simulated(kTwelve, 5, &failing));
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result.value().entrants[0].alive);
  EXPECT_NE(result.value().entrants[0].drop_reason.find("not measured in round 0: crashed"), std::string::npos);
  ASSERT_TRUE(result.value().winner.has_value());
  EXPECT_NE(*result.value().winner, 0u);
}

TEST(Race, IdenticalConfigurationsTieAndTheBudgetStopsARace) {
  const std::vector<KnownLatency> same = {{1000, 100}, {1000, 100}, {1000, 100}};
  RaceSettings settings;
  settings.objective = Metric("mean");
  settings.initial_queries = 2000;
  settings.tie_tolerance = 0.05;
  auto tied = RunRace(settings, Entrants(same), Simulated(same, 9));
  ASSERT_TRUE(tied.ok());
  EXPECT_EQ(tied.value().outcome, "tied") << tied.value().outcome_text;
  ASSERT_TRUE(tied.value().winner.has_value());
  EXPECT_EQ(tied.value().tied_with_winner.size(), 2u);

  settings.tie_tolerance = 0;
  settings.budget_ns = 3'000'000'000;  // round 0 costs 3 x (2 s + 0.2 s): round 1 would pass it
  auto budget = RunRace(settings, Entrants(same), Simulated(same, 9));
  ASSERT_TRUE(budget.ok());
  EXPECT_EQ(budget.value().outcome, "budget") << budget.value().outcome_text;
  EXPECT_EQ(budget.value().rounds.size(), 1u);
  EXPECT_TRUE(budget.value().winner.has_value());
}

TEST(Race, AnUnmeasuredObjectiveSaysWhy) {
  RaceSettings settings;
  settings.objective = Metric("energy");
  settings.initial_queries = 100;
  const std::vector<KnownLatency> two = {{1000, 10}, {2000, 10}};
  auto measure = Simulated(two, 1);
  auto result = RunRace(settings, Entrants(two), [&](const std::vector<size_t>& e, int round, int64_t q) {
    auto observations = measure(e, round, q);
    for (RaceObservation& o : *observations) o.record_value_notes["energy_mj_per_query"] = "no power sensor on this machine";
    return observations;
  });
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.value().outcome, "unmeasured");
  EXPECT_NE(result.value().outcome_text.find("no power sensor"), std::string::npos) << result.value().outcome_text;
  EXPECT_FALSE(result.value().winner.has_value());
}

// Records tagged with their race replay to the same answer: what --resume and the report rely on.
TEST(Race, ReplayingTheRecordsGivesTheSameRace) {
  RaceDescription race;
  race.id = "0123456789abcdef";
  race.model = "m";
  race.scenario = "single-stream";
  race.space = "target=null:sleep;us=...";
  race.settings.objective = Metric("p99");
  race.settings.initial_queries = 950;
  race.entrants = Entrants(kTwelve);
  race.pruned = {{"null:gpu", "null has no device 'gpu'"}};
  auto simulated = Simulated(kTwelve, 11);
  std::vector<Record> records;
  auto recording = [&](const std::vector<size_t>& entrants, int round, int64_t queries) {
    auto observations = simulated(entrants, round, queries);
    for (size_t k = 0; k < entrants.size(); ++k) {
      Record r = testing::MakeRecord((*observations)[k].latencies_ns);
      r.measured_wall_ns = (*observations)[k].measured_ns;
      r.tune = RaceTag(race, entrants[k], round, queries);
      records.push_back(r);
    }
    return observations;
  };
  auto live = RunRace(race.settings, race.entrants, recording);
  ASSERT_TRUE(live.ok());
  const auto replayed = ReplayRaces(records);
  ASSERT_EQ(replayed.size(), 1u);
  EXPECT_TRUE(replayed[0].complete);
  EXPECT_EQ(replayed[0].race.pruned.size(), 1u);
  const RaceResult& a = live.value();
  const RaceResult& b = replayed[0].result;
  EXPECT_EQ(a.winner, b.winner);
  EXPECT_EQ(a.rounds.size(), b.rounds.size());
  for (size_t i = 0; i < a.entrants.size(); ++i) {
    EXPECT_EQ(a.entrants[i].dropped_round, b.entrants[i].dropped_round) << i;
    EXPECT_EQ(a.entrants[i].queries, b.entrants[i].queries) << i;
  }
  // A race whose last round is missing replays as incomplete.
  records.pop_back();
  EXPECT_FALSE(ReplayRaces(records)[0].complete);
}

}  // namespace
}  // namespace edgebench
