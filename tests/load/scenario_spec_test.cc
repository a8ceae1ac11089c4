#include "load/scenario_registry.h"
#include "load/scenario_spec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "load/scenario.h"

namespace edgebench {
namespace {

TEST(ScenarioSpec, ParsesEachFormToItsCanonicalText) {
  EXPECT_EQ(ParseScenario("single-stream").value().family(), "single-stream");
  EXPECT_EQ(ParseScenario("offline").value().Canonical(), "offline");
  const ScenarioSpec multi = ParseScenario("multi-stream:8").take();
  EXPECT_EQ(multi.family(), "multi-stream");
  EXPECT_EQ(multi.streams, 8);
  EXPECT_EQ(multi.Canonical(), "multi-stream:8");
  const ScenarioSpec server = ParseScenario("server:250.5").take();
  EXPECT_EQ(server.family(), "server");
  EXPECT_DOUBLE_EQ(server.target_qps, 250.5);
  EXPECT_EQ(server.Canonical(), "server:250.5");
  const ScenarioSpec soak = ParseScenario("soak:30m").take();
  EXPECT_EQ(soak.family(), "soak");
  EXPECT_EQ(soak.duration_ms, 1'800'000);
  EXPECT_EQ(soak.Canonical(), "soak:1800s");
  EXPECT_EQ(ParseScenario("soak:1500ms").value().Canonical(), "soak:1500ms");
  // Peak search halves its way to tiny rates: their text has no exponent and parses back.
  EXPECT_EQ(FormatRate(100.0 / (1 << 20)), "0.000095367431640625");
  EXPECT_EQ(FormatRate(RoundRate(100.0 / (1 << 20))), "0.0000953674");
  EXPECT_EQ(FormatRate(1234567), "1234567");  // large rates keep their digits
  EXPECT_EQ(ParseScenario("server:" + FormatRate(RoundRate(100.0 / (1 << 20)))).value().Canonical(),
            "server:0.0000953674");
}

// Every rate the server scenario accepts survives its name: formatted, parsed and formatted
// again it is the same double and the same text, and no two rates share a name. (A rate of
// 1,000,000 QPS was named "server:1" and ran at 1 QPS.)
TEST(ScenarioSpec, EveryAcceptedRateRoundTripsThroughItsName) {
  std::vector<double> rates = {1e7, 9999999.5, 1e6, 2e6, 1234560, 1234567, 1234568, 100000, 100, 10, 1, 0.5,
                               0.1, 0.3, 0.1 + 0.2, 1.0 / 3, 1e-3, 1e-6, 141.42135623730951,
                               std::nextafter(1e6, 0.0), std::nextafter(1e6, 2e6)};
  for (double r = 1e-6; r <= 1e7; r *= 1.37) rates.push_back(r);
  std::set<std::string> names;
  std::set<double> distinct;
  for (double rate : rates) {
    if (!distinct.insert(rate).second) continue;
    const std::string name = "server:" + FormatRate(rate);
    EXPECT_EQ(FormatRate(rate).find('e'), std::string::npos) << name;
    auto parsed = ParseScenario(name);
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.error();
    EXPECT_EQ(parsed.value().target_qps, rate) << name;
    EXPECT_EQ(parsed.value().Canonical(), name);
    EXPECT_TRUE(names.insert(name).second) << name << " names two rates";
    // A peak search's step is rounded before it runs: its name still holds exactly that rate.
    const double step = RoundRate(rate);
    EXPECT_EQ(ParseScenario("server:" + FormatRate(step)).value().target_qps, step) << rate;
    EXPECT_NEAR(step, rate, rate * 5e-6) << rate;
  }
  EXPECT_EQ(FormatRate(1e6), "1000000");
  EXPECT_EQ(FormatRate(1e7), "10000000");
}

// So does every soak duration, from a millisecond to a week, and every stream count.
TEST(ScenarioSpec, EveryAcceptedDurationAndStreamCountRoundTripsThroughItsName) {
  std::vector<int64_t> durations = {1, 999, 1000, 1001, 59'999, 60'000, 3'600'000, 7 * 24 * 3'600'000LL};
  for (int64_t ms = 1; ms <= 7 * 24 * 3'600'000LL; ms = ms * 3 + 1) durations.push_back(ms);
  for (int64_t ms : durations) {
    const std::string name = "soak:" + std::to_string(ms) + "ms";
    auto parsed = ParseScenario(name);
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.error();
    EXPECT_EQ(parsed.value().duration_ms, ms);
    auto again = ParseScenario(parsed.value().Canonical());
    ASSERT_TRUE(again.ok()) << parsed.value().Canonical();
    EXPECT_EQ(again.value().duration_ms, ms) << parsed.value().Canonical();
  }
  for (int64_t streams : {1, 2, 7, 1023, 1024}) {
    auto parsed = ParseScenario("multi-stream:" + std::to_string(streams));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(ParseScenario(parsed.value().Canonical()).value().streams, streams);
  }
}

TEST(ScenarioSpec, RejectsBadParametersNamingTheForms) {
  for (const char* bad : {"multi-stream", "multi-stream:0", "multi-stream:2.5", "multi-stream:-1",
                          "multi-stream:100000", "server:0", "server:0.0000009", "server:10000001", "server:abc", "server:", "server:1e9",
                          "soak", "soak:", "soak:10x", "offline:4", "single-stream:1", "streams", ""}) {
    auto parsed = ParseScenario(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().find("multi-stream:N, server:QPS"), std::string::npos) << parsed.error();
  }
  EXPECT_NE(ParseScenario("multi-stream:0").error().find("from 1 to 1024"), std::string::npos);
  EXPECT_NE(ParseScenario("bogus").error().find("unknown scenario 'bogus'"), std::string::npos);
}

TEST(ScenarioSpec, DurationsInEveryUnit) {
  EXPECT_EQ(ParseDurationMs("500ms").value(), 500);
  EXPECT_EQ(ParseDurationMs("5s").value(), 5000);
  EXPECT_EQ(ParseDurationMs("2").value(), 2000);
  EXPECT_EQ(ParseDurationMs("1.5m").value(), 90'000);
  EXPECT_EQ(ParseDurationMs("2h").value(), 7'200'000);
  EXPECT_FALSE(ParseDurationMs("0.1ms").ok());  // under a millisecond
  EXPECT_FALSE(ParseDurationMs("8d").ok());
  EXPECT_FALSE(ParseDurationMs("200h").ok());  // over a week
  EXPECT_FALSE(ParseDurationMs("-5s").ok());
  EXPECT_FALSE(ParseDurationMs("ms").ok());
}

TEST(ScenarioSpec, SoakRunsExactlyItsDuration) {
  RunSettings requested;
  requested.min_duration_ms = 10;
  requested.max_duration_ms = 20;
  requested.min_queries = 500;
  const RunSettings soak = ValidateForScenario("soak:3s", requested).value().values;
  EXPECT_EQ(soak.min_duration_ms, 3000);
  EXPECT_EQ(soak.max_duration_ms, 3000);
  EXPECT_EQ(soak.min_queries, 1);
  const RunSettings multi = ValidateForScenario("multi-stream:2", requested).value().values;
  EXPECT_EQ(multi.max_duration_ms, 20);
  EXPECT_FALSE(ValidateForScenario("soak:x", requested).ok());
}

TEST(ScenarioSpec, LoadSettingsAreChecked) {
  RunSettings s;
  s.sessions = "both";
  EXPECT_NE(Validate(s).error().find("--sessions must be per-stream or shared"), std::string::npos);
  s = RunSettings{};
  s.concurrency = 0;
  EXPECT_NE(Validate(s).error().find("--concurrency"), std::string::npos);
  s = RunSettings{};
  s.confidence = 1.0;
  EXPECT_NE(Validate(s).error().find("--confidence"), std::string::npos);
  s = RunSettings{};
  s.p99_bound_ms = -1;
  EXPECT_NE(Validate(s).error().find("--p99-bound-ms"), std::string::npos);
  s = RunSettings{};
  s.window_ms = 0;
  EXPECT_NE(Validate(s).error().find("--window"), std::string::npos);
}

TEST(ScenarioSpec, ScenariosAskForTheSessionsTheirStreamsNeed) {
  RunSettings s;
  auto multi = MakeScenario("multi-stream:4", s, {}).take();
  EXPECT_EQ(multi->sessions_needed(), 4);
  EXPECT_FALSE(multi->needs_concurrent_runs());
  s.sessions = "shared";
  auto shared = MakeScenario("multi-stream:4", s, {}).take();
  EXPECT_EQ(shared->sessions_needed(), 1);
  EXPECT_EQ(shared->streams(), 4);
  EXPECT_TRUE(shared->needs_concurrent_runs());
  s = RunSettings{};
  s.concurrency = 3;
  s.batch = 8;
  auto offline = MakeScenario("offline", s, {}).take();
  EXPECT_EQ(offline->sessions_needed(), 3);
  EXPECT_EQ(offline->batch(), 8);
  // Every tensor scenario binds the batch: tune races it in single- and multi-stream.
  EXPECT_EQ(MakeScenario("server:10", s, {}).value()->batch(), 8);
  EXPECT_EQ(MakeScenario("single-stream", s, {}).value()->batch(), 8);
  EXPECT_EQ(MakeScenario("single-stream", s, {}).value()->sessions_needed(), 1);
}

}  // namespace
}  // namespace edgebench
