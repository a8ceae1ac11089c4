#include "load/scenario_spec.h"

#include <gtest/gtest.h>

#include "load/scenario.h"

namespace edgebench {
namespace {

TEST(ScenarioSpec, ParsesEachFormToItsCanonicalText) {
  EXPECT_EQ(ParseScenario("single-stream").value().kind, ScenarioKind::kSingleStream);
  EXPECT_EQ(ParseScenario("offline").value().Canonical(), "offline");
  const ScenarioSpec multi = ParseScenario("multi-stream:8").take();
  EXPECT_EQ(multi.kind, ScenarioKind::kMultiStream);
  EXPECT_EQ(multi.streams, 8);
  EXPECT_EQ(multi.Canonical(), "multi-stream:8");
  const ScenarioSpec server = ParseScenario("server:250.5").take();
  EXPECT_EQ(server.kind, ScenarioKind::kServer);
  EXPECT_DOUBLE_EQ(server.target_qps, 250.5);
  EXPECT_EQ(server.Canonical(), "server:250.5");
  const ScenarioSpec soak = ParseScenario("soak:30m").take();
  EXPECT_EQ(soak.kind, ScenarioKind::kSoak);
  EXPECT_EQ(soak.duration_ms, 1'800'000);
  EXPECT_EQ(soak.Canonical(), "soak:1800s");
  EXPECT_EQ(ParseScenario("soak:1500ms").value().Canonical(), "soak:1500ms");
  // Peak search halves its way to tiny rates: their text has no exponent and parses back.
  EXPECT_EQ(FormatRate(100.0 / (1 << 20)), "0.0000953674");
  EXPECT_EQ(FormatRate(1234567), "1234567");  // large rates keep their digits
  EXPECT_EQ(ParseScenario("server:" + FormatRate(100.0 / (1 << 20))).value().Canonical(), "server:0.0000953674");
}

TEST(ScenarioSpec, RejectsBadParametersNamingTheForms) {
  for (const char* bad : {"multi-stream", "multi-stream:0", "multi-stream:2.5", "multi-stream:-1",
                          "multi-stream:100000", "server:0", "server:abc", "server:", "server:1e9",
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
