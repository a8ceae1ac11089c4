#include "report/pareto.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

// An ok, VALID single-stream record of the given latencies (ms).
Record Latency(const std::string& id, const std::string& target, double p50_ms, double p99_ms) {
  Record r;
  r.id = id;
  r.started_at = "2026-01-01T00:00:00Z";
  r.case_key = "key-" + target;
  r.model = "m";
  r.requested_target = r.effective_target = target;
  r.backend = "null";
  r.device = "sleep";
  r.status = CaseStatus::kOk;
  r.valid = true;
  r.environment.hostname = "host";
  r.summary.count = 1000;
  r.summary.mean_ns = p50_ms * 1e6;
  r.summary.throughput_qps = 1000 / p50_ms;
  r.summary.percentiles = {{0.50, static_cast<int64_t>(p50_ms * 1e6)},
                           {0.90, static_cast<int64_t>(p50_ms * 1e6)},
                           {0.99, static_cast<int64_t>(p99_ms * 1e6)}};
  return r;
}

Record WithEnergy(Record r, double mj_per_query) {
  r.monitor.emplace();
  r.monitor->derived.energy.per_query_mj = mj_per_query;
  return r;
}

// The accuracy record of the artifact and target that `latency` measured.
Record AccuracyOf(const Record& latency, const std::string& id, double top1) {
  Record r;
  r.id = id;
  r.started_at = latency.started_at;
  r.case_key = "acc-" + latency.case_key;
  r.model = latency.model;
  r.effective_target = latency.effective_target;
  r.scenario = "accuracy";
  r.status = CaseStatus::kOk;
  r.valid = true;
  r.environment.hostname = latency.environment.hostname;
  r.accuracy.emplace();
  r.accuracy->latency_case_key = latency.case_key;
  r.accuracy->top1_accuracy = {static_cast<int64_t>(top1 * 1000), 1000, top1, top1 - 0.02, top1 + 0.02};
  return r;
}

RecommendQuery Query(const std::string& objectives, const std::string& constraints = "") {
  RecommendQuery query;
  auto o = ParseObjectives(objectives);
  EXPECT_TRUE(o.ok()) << o.error();
  query.objectives = o.take();
  auto c = ParseConstraints(constraints);
  EXPECT_TRUE(c.ok()) << c.error();
  query.constraints = c.take();
  return query;
}

const Configuration& ByTarget(const Recommendation& r, const std::string& target) {
  for (const Configuration& c : r.configurations) {
    if (c.row["target"] == target) return c;
  }
  ADD_FAILURE() << "no configuration on " << target;
  static Configuration none;
  return none;
}

std::string WinnerTarget(const Recommendation& r) {
  return r.winner ? r.configurations[*r.winner].row["target"].get<std::string>() : "(none)";
}

// A: fastest, least accurate; B: slower, most accurate; C: slower than B and less accurate
// (dominated by B).
std::vector<Record> ThreeConfigurations() {
  const Record a = Latency("1", "a", 1, 1.0), b = Latency("2", "b", 2, 2.0), c = Latency("3", "c", 3, 3.0);
  return {a, b, c, AccuracyOf(a, "4", 0.90), AccuracyOf(b, "5", 0.95), AccuracyOf(c, "6", 0.92)};
}

TEST(Pareto, FrontHoldsWhatNothingDominatesAndTheWinnerIsBestOnTheFirstObjective) {
  auto r = Recommend(ThreeConfigurations(), Query("p99,accuracy"));
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r.value().configurations.size(), 3u);  // accuracy joined, not configurations of their own
  EXPECT_TRUE(ByTarget(r.value(), "a").on_front);
  EXPECT_TRUE(ByTarget(r.value(), "b").on_front);
  EXPECT_FALSE(ByTarget(r.value(), "c").on_front);
  EXPECT_EQ(ByTarget(r.value(), "b").row["top1"], 0.95);
  EXPECT_EQ(ByTarget(r.value(), "b").record_ids, (std::vector<std::string>{"2", "5"}));
  EXPECT_EQ(WinnerTarget(r.value()), "a");
  ASSERT_TRUE(r.value().runner_up);
  EXPECT_EQ(r.value().configurations[*r.value().runner_up].row["target"], "b");
  EXPECT_NE(r.value().runner_up_reason.find("lost on p99_ms: 2 ms against the winner's 1 ms (+100%"),
            std::string::npos) << r.value().runner_up_reason;
  EXPECT_NE(r.value().rule.find("best p99_ms (lower is better)"), std::string::npos) << r.value().rule;
  const std::string text = RecommendationText(r.value());
  EXPECT_NE(text.find("rule: "), std::string::npos) << text;
  EXPECT_NE(text.find("winner: m on a"), std::string::npos) << text;
}

// A configuration on an emulated device (lavapipe) ranked with ones on hardware: it is ranked by
// what it measured, and the answer says that it is the CPU running the device's code.
TEST(Pareto, AnEmulatedDeviceRankedWithHardwareIsSaid) {
  Record emulated = Latency("1", "llamacpp:vulkan0", 1, 1.0);
  emulated.notes.push_back("emulated: lavapipe, Mesa's Vulkan on the CPU: the latencies are this machine's CPU "
                           "running the device's code, not a device's");
  auto r = Recommend({emulated, Latency("2", "llamacpp:cpu", 2, 2.0)}, Query("p99"));
  ASSERT_TRUE(r.ok()) << r.error();
  bool said = false;
  for (const std::string& note : r.value().notes) {
    said |= note.find("ran on an emulated device (lavapipe, Mesa's Vulkan on the CPU)") != std::string::npos;
  }
  EXPECT_TRUE(said) << ::testing::PrintToString(r.value().notes);
  EXPECT_NE(RecommendationText(r.value()).find("emulated device"), std::string::npos);
}

TEST(Pareto, AccuracyIsBetterHigher) {
  auto r = Recommend(ThreeConfigurations(), Query("accuracy,p99"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(WinnerTarget(r.value()), "b");
  EXPECT_EQ(r.value().query.objectives[0].direction, Direction::kHigher);
  EXPECT_NE(r.value().runner_up_reason.find("lost on top1"), std::string::npos) << r.value().runner_up_reason;
}

TEST(Pareto, ValuesWithinTheTieToleranceGoOnToTheNextObjective) {
  const Record a = Latency("1", "a", 1, 1.000), b = Latency("2", "b", 1, 1.005);
  auto r = Recommend({a, b, AccuracyOf(a, "3", 0.90), AccuracyOf(b, "4", 0.95)}, Query("p99,accuracy"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(ByTarget(r.value(), "a").on_front);
  EXPECT_TRUE(ByTarget(r.value(), "b").on_front);
  EXPECT_EQ(WinnerTarget(r.value()), "b");  // p99 tied within 1%, more accurate
  EXPECT_NE(r.value().runner_up_reason.find("tied on p99_ms"), std::string::npos) << r.value().runner_up_reason;
  EXPECT_NE(r.value().runner_up_reason.find("lost on top1"), std::string::npos) << r.value().runner_up_reason;
  // With no tolerance, the faster one wins outright.
  RecommendQuery strict = Query("p99,accuracy");
  strict.tie_tolerance = 0;
  auto s = Recommend({a, b, AccuracyOf(a, "3", 0.90), AccuracyOf(b, "4", 0.95)}, strict);
  EXPECT_EQ(WinnerTarget(s.value()), "a");
}

TEST(Pareto, EqualConfigurationsAreBothOnTheFrontAndTheEarlierRecordWins) {
  auto r = Recommend({Latency("2", "b", 1, 1), Latency("1", "a", 1, 1)}, Query("p99"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().front.size(), 2u);
  EXPECT_EQ(WinnerTarget(r.value()), "a");
  EXPECT_EQ(r.value().runner_up_reason, "equal on every objective; lost on record order");
}

TEST(Pareto, ConstraintsFilterAndSayWhichOneWasMissed) {
  auto r = Recommend(ThreeConfigurations(), Query("p99,accuracy", "p99<=2.5ms,accuracy>=0.93"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(WinnerTarget(r.value()), "b");
  EXPECT_FALSE(r.value().runner_up);
  EXPECT_EQ(ByTarget(r.value(), "a").failed_constraints, (std::vector<std::string>{"accuracy>=0.93 (0.9)"}));
  EXPECT_EQ(ByTarget(r.value(), "c").failed_constraints,
            (std::vector<std::string>{"p99<=2.5ms (3 ms)", "accuracy>=0.93 (0.92)"}));
  EXPECT_FALSE(ByTarget(r.value(), "c").eligible);
}

TEST(Pareto, NothingMeetingTheConstraintsIsNoWinnerWithTheReason) {
  auto r = Recommend(ThreeConfigurations(), Query("p99", "p99<=500us"));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value().winner);
  EXPECT_TRUE(r.value().front.empty());
  EXPECT_NE(r.value().no_winner_reason.find("no configuration meets every constraint"), std::string::npos);
  EXPECT_NE(RecommendationText(r.value()).find("no winner: "), std::string::npos);
  EXPECT_TRUE(RecommendationToJson(r.value())["winner"].is_null());
  auto empty = Recommend({}, Query("p99"));
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty.value().winner);
  EXPECT_NE(empty.value().no_winner_reason.find("no ok, VALID single-stream record"), std::string::npos);
}

TEST(Pareto, AnObjectiveNoConfigurationHasIsDroppedWithANote) {
  auto r = Recommend(ThreeConfigurations(), Query("p99,energy,accuracy"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().objective_active, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(WinnerTarget(r.value()), "a");
  ASSERT_FALSE(r.value().notes.empty());
  EXPECT_NE(r.value().notes.back().find("objective energy dropped: no configuration has energy_mj_per_query"),
            std::string::npos) << r.value().notes.back();
  EXPECT_EQ(RecommendationToJson(r.value())["objectives"][1]["active"], false);
}

TEST(Pareto, AConfigurationMissingAnObjectiveOthersHaveIsLeftOutAndSaid) {
  auto r = Recommend({Latency("1", "a", 1, 1), WithEnergy(Latency("2", "b", 2, 2), 5),
                      WithEnergy(Latency("3", "c", 3, 3), 4)},
                     Query("p99,energy"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(WinnerTarget(r.value()), "b");
  EXPECT_EQ(ByTarget(r.value(), "a").missing, (std::vector<std::string>{"energy_mj_per_query"}));
  EXPECT_FALSE(ByTarget(r.value(), "a").on_front);
  EXPECT_TRUE(ByTarget(r.value(), "c").on_front);  // less energy
  EXPECT_NE(RecommendationText(r.value()).find("energy_mj_per_query not measured"), std::string::npos);
}

TEST(Pareto, RecordsThatFailedOrAreInvalidAreNotConfigurations) {
  Record failed = Latency("2", "b", 0.5, 0.5);
  failed.status = CaseStatus::kFailed;
  Record invalid = Latency("3", "c", 0.4, 0.4);
  invalid.valid = false;
  Record server = Latency("4", "d", 0.3, 0.3);
  server.scenario = "server:200";
  auto r = Recommend({Latency("1", "a", 1, 1), failed, invalid, server}, Query("p99"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value().configurations.size(), 1u);
  EXPECT_EQ(WinnerTarget(r.value()), "a");
  EXPECT_EQ(r.value().notes.size(), 3u);
  RecommendQuery server_query = Query("p99");
  server_query.scenario = "server";
  EXPECT_EQ(WinnerTarget(Recommend({Latency("1", "a", 1, 1), server}, server_query).value()), "d");
}

TEST(Pareto, AConfigurationMeasuredTwiceCountsOnceByItsLatestRecord) {
  Record old = Latency("1", "a", 5, 5);
  Record latest = Latency("2", "a", 1, 1);
  latest.started_at = "2026-02-01T00:00:00Z";
  auto r = Recommend({latest, old, Latency("3", "b", 2, 2)}, Query("p99"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value().configurations.size(), 2u);
  EXPECT_EQ(ByTarget(r.value(), "a").record_ids, (std::vector<std::string>{"2"}));
  EXPECT_EQ(WinnerTarget(r.value()), "a");
}

TEST(Pareto, ThreadsComeFromTheEffectiveTarget) {
  auto r = Recommend({Latency("1", "ort:cpu?threads=4", 1, 1), Latency("2", "ort:cpu", 2, 2)},
                     Query("p99", "threads<=2"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ByTarget(r.value(), "ort:cpu?threads=4").row["threads"], 4);
  EXPECT_EQ(ByTarget(r.value(), "ort:cpu?threads=4").failed_constraints,
            (std::vector<std::string>{"threads<=2 (4)"}));
  EXPECT_EQ(ByTarget(r.value(), "ort:cpu").failed_constraints,
            (std::vector<std::string>{"threads<=2 (threads unknown)"}));
  EXPECT_FALSE(r.value().winner);
}

TEST(Pareto, ConstraintUnitsConvertToTheColumns) {
  struct Case {
    std::string text;
    std::string column;
    double bound;
  };
  for (const Case& c : std::vector<Case>{{"p99<=900us", "p99_ms", 0.9},
                                         {"p99 <= 1s", "p99_ms", 1000},
                                         {"p50<2000000ns", "p50_ms", 2},
                                         {"p90<=10", "p90_ms", 10},
                                         {"energy<=2J", "energy_mj_per_query", 2000},
                                         {"energy<=500uJ", "energy_mj_per_query", 0.5},
                                         {"power<=3W", "mean_power_mw", 3000},
                                         {"accuracy>=90%", "top1", 0.9},
                                         {"accuracy>=0.9", "top1", 0.9},
                                         {"memory<=1GiB", "peak_rss_mib", 1024},
                                         {"throughput>=100qps", "throughput_qps", 100},
                                         {"tokens_per_s>12.5tok/s", "tokens_per_s", 12.5}}) {
    auto parsed = ParseConstraint(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.error();
    EXPECT_EQ(parsed.value().column, c.column) << c.text;
    EXPECT_NEAR(parsed.value().bound, c.bound, 1e-9 * c.bound) << c.text;
  }
  EXPECT_TRUE(Meets(ParseConstraint("p99<=1ms").value(), 1.0));
  EXPECT_FALSE(Meets(ParseConstraint("p99<1ms").value(), 1.0));
  EXPECT_TRUE(Meets(ParseConstraint("accuracy>=0.9").value(), 0.9));
  EXPECT_FALSE(Meets(ParseConstraint("accuracy>0.9").value(), 0.9));
}

TEST(Pareto, BadTextIsAClearError) {
  struct Case {
    std::string text;
    std::string says;
  };
  for (const Case& c : std::vector<Case>{
           {"p99 <= fast", "is not METRIC OP NUMBER[UNIT]"},
           {"p99=10ms", "is not METRIC OP NUMBER[UNIT]"},
           {"p99<=5mJ", "unit 'mJ' does not fit p99_ms (ms); write ns, us, ms (the default), s"},
           {"accuracy>=90", "top1 is a fraction from 0 to 1; write 90% or 0.9"},
           {"speed<=3", "unknown metric 'speed'"},
           {"backend<=3", "'backend' is not a metric"},
           // Numbers a double does not hold: usage errors, not an abort (they aborted three commands).
           {"p50<=1e400ms", "1e400 is not a number a double holds"},
           {"p50<=1e-400ms", "1e-400 is not a number a double holds"},
           {"memory<=1e308GiB", "1e308 is not a number a double holds"}}) {
    auto parsed = ParseConstraint(c.text);
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_NE(parsed.error().find(c.says), std::string::npos) << c.text << ": " << parsed.error();
  }
  EXPECT_NE(ParseObjectives("p99,speed").error().find("objective: unknown metric 'speed'; metrics: p50"),
            std::string::npos);
  EXPECT_NE(ParseObjectives("threads").error().find("not a metric"), std::string::npos);
  EXPECT_NE(ParseObjectives("p99,p99_ms").error().find("names p99_ms again"), std::string::npos);
  EXPECT_NE(ParseObjectives(" , ").error().find("no objective given"), std::string::npos);
  EXPECT_EQ(ParseObjective("tokens").value().direction, Direction::kHigher);
  EXPECT_EQ(ParseObjective("memory").value().direction, Direction::kLower);
}

TEST(Pareto, JsonCarriesTheFrontTheWinnerAndEveryConfiguration) {
  auto r = Recommend(ThreeConfigurations(), Query("p99,accuracy", "p99<=2.5ms"));
  ASSERT_TRUE(r.ok());
  const nlohmann::json json = RecommendationToJson(r.value());
  EXPECT_EQ(json["schema"], "edgebench.recommendation/1");
  EXPECT_EQ(json["configurations"].size(), 3u);
  EXPECT_EQ(json["front"].size(), 2u);
  const size_t winner = json["winner"].get<size_t>();
  EXPECT_EQ(json["configurations"][winner]["row"]["target"], "a");
  EXPECT_EQ(json["configurations"][winner]["objectives"]["p99_ms"], 1.0);
  EXPECT_EQ(json["constraints"][0]["bound"], 2.5);
  EXPECT_EQ(json["objectives"][1]["direction"], "higher");
  EXPECT_FALSE(json["rule"].get<std::string>().empty());
  EXPECT_TRUE(json["runner_up_reason"].is_string());
}

// Configurations of different models are never rivals: a store of two models needs --model.
TEST(Pareto, SeveralModelsNeedOneNamed) {
  Record vit = Latency("a", "ort:cpu", 20, 30);
  vit.model = "vit";
  Record face = Latency("b", "ort:cpu", 2, 3);
  face.model = "blazeface";
  face.case_key = "key-face";
  auto mixed = Recommend({vit, face}, Query("p50"));
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.error().find("2 models (blazeface, vit)"), std::string::npos) << mixed.error();
  EXPECT_NE(mixed.error().find("--model"), std::string::npos) << mixed.error();
  RecommendQuery only_vit = Query("p50");
  only_vit.model = "vit";
  auto named = Recommend({vit, face}, only_vit);
  ASSERT_TRUE(named.ok()) << named.error();
  ASSERT_EQ(named.value().configurations.size(), 1u);
  EXPECT_EQ(named.value().configurations[0].row["model"], "vit");
}

}  // namespace
}  // namespace edgebench

namespace edgebench {
namespace {

// Five rounds of a target: the same case key, each round's p50 (and p99 twice it) as given.
std::vector<Record> Rounds(const std::string& target, const std::vector<double>& p50_ms) {
  std::vector<Record> records;
  for (size_t i = 0; i < p50_ms.size(); ++i) {
    Record r = Latency(target + "-" + std::to_string(i), target, p50_ms[i], 2 * p50_ms[i]);
    r.started_at = "2026-01-01T00:00:0" + std::to_string(i) + "Z";
    r.round = RoundTag{static_cast<int>(i + 1), static_cast<int>(p50_ms.size()), "interleaved", 0, 1};
    records.push_back(r);
  }
  return records;
}

TEST(ParetoRounds, AConfigurationIsTheMedianOfItsRoundsAndAnInseparableLeadIsSaid) {
  std::vector<Record> records = Rounds("a", {1.00, 1.02, 0.98, 1.01, 0.97});
  for (Record& r : Rounds("b", {1.01, 0.99, 1.00, 1.03, 0.98})) records.push_back(r);
  RecommendQuery query;
  query.objectives = {ParseObjective("p50").take()};
  auto rec = Recommend(records, query);
  ASSERT_TRUE(rec.ok()) << rec.error();
  ASSERT_EQ(rec.value().configurations.size(), 2u);
  const Configuration& a = rec.value().configurations[*rec.value().winner];
  EXPECT_EQ(a.label.find("on a"), a.label.size() - 4) << a.label;
  EXPECT_DOUBLE_EQ(a.row["p50_ms"].get<double>(), 1.00);  // the median, not the last round's 0.97
  EXPECT_EQ(a.record_ids.size(), 5u);
  EXPECT_NE(rec.value().runner_up_reason.find("across rounds their p50 are not separable at this noise"),
            std::string::npos)
      << rec.value().runner_up_reason;
  for (const std::string& note : rec.value().notes) {
    EXPECT_EQ(note.find("older record(s)"), std::string::npos) << "rounds are not re-measurements: " << note;
  }
  // A target twice as slow is separable: nothing said.
  std::vector<Record> apart = Rounds("a", {1.00, 1.02, 0.98, 1.01, 0.97});
  for (Record& r : Rounds("c", {2.01, 1.99, 2.00, 2.03, 1.98})) apart.push_back(r);
  auto clear = Recommend(apart, query);
  ASSERT_TRUE(clear.ok());
  EXPECT_EQ(clear.value().runner_up_reason.find("across rounds"), std::string::npos) << clear.value().runner_up_reason;
}

}  // namespace
}  // namespace edgebench
