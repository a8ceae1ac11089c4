// The scenario registry (load/scenario_registry.h): every scenario is an entry, and what the core
// asks of a scenario (its name, its settings, its streams, its record rules) comes from it.
#include "load/scenario_registry.h"

#include <gtest/gtest.h>

#include <set>

#include "load/scenario.h"
#include "plan/run_request_check.h"

namespace edgebench {
namespace {

// A parameter each entry accepts, to make one of each.
std::string Example(const ScenarioEntry& entry) {
  const std::string family = entry.family;
  if (family == "multi-stream") return "multi-stream:3";
  if (family == "server") return "server:50";
  if (family == "soak") return "soak:2s";
  if (family == "burst") return "burst:2/20ms";
  if (family == "camera") return "camera:2@50fps/queue:2";
  return family;
}

TEST(ScenarioRegistry, EveryScenarioIsAnEntryWhoseNameRoundTrips) {
  std::set<std::string> families;
  for (const ScenarioEntry* entry : RegisteredScenarios()) {
    EXPECT_TRUE(families.insert(entry->family).second) << entry->family << " registered twice";
    EXPECT_EQ(FindRegisteredScenario(entry->family), entry);
    auto spec = ParseScenario(Example(*entry));
    ASSERT_TRUE(spec.ok()) << spec.error();
    EXPECT_EQ(spec.value().entry, entry);
    EXPECT_EQ(ParseScenario(spec.value().Canonical()).value().Canonical(), spec.value().Canonical());
    EXPECT_NE(ScenarioForms().find(entry->form), std::string::npos) << entry->form;
  }
  EXPECT_EQ(families, (std::set<std::string>{"single-stream", "multi-stream", "server", "offline", "soak", "llm",
                                             "burst", "camera"}));
  EXPECT_EQ(FindRegisteredScenario("accuracy"), nullptr);  // a mode, not a scenario
}

TEST(ScenarioRegistry, ScenariosAreMadeFromTheirEntriesWithTheirStreams) {
  RunSettings s;
  s.concurrency = 3;
  s.streams = 4;
  for (const ScenarioEntry* entry : RegisteredScenarios()) {
    const std::string name = Example(*entry);
    auto made = MakeScenario(name, s, LlmSettings{});
    ASSERT_TRUE(made.ok()) << name << ": " << made.error();
    EXPECT_EQ(made.value()->name(), ParseScenario(name).value().Canonical());
    EXPECT_EQ(made.value()->session_kind(), entry->sessions) << name;
    if (entry->sessions == SessionKind::kTensor) {
      EXPECT_EQ(made.value()->streams(), entry->streams(ParseScenario(name).value(), s)) << name;
    }
  }
  EXPECT_EQ(MakeScenario("server:50", s, {}).value()->streams(), 3);
  EXPECT_EQ(MakeScenario("soak:2s", s, {}).value()->streams(), 4);
  EXPECT_EQ(MakeScenario("multi-stream:3", s, {}).value()->streams(), 3);
  LlmSettings no_prompt;
  no_prompt.prompt_tokens = 0;
  EXPECT_FALSE(MakeScenario("llm", s, no_prompt).ok());
}

TEST(ScenarioRegistry, EachEntryDeclaresTheRulesItsRecordIsJudgedBy) {
  const auto rules = [](const char* name) { return ParseScenario(name).value().entry->rules; };
  EXPECT_TRUE(rules("single-stream").judge_stability);
  EXPECT_TRUE(rules("server:10").server);
  EXPECT_FALSE(rules("server:10").judge_cv);  // queueing is what it measures
  EXPECT_TRUE(rules("soak:1s").drift);
  EXPECT_FALSE(rules("soak:1s").judge_cv);
  EXPECT_TRUE(rules("offline").throughput);
  EXPECT_FALSE(rules("burst:2").judge_stability);
}

TEST(ScenarioRegistry, ASettingNoListedScenarioUsesIsRefusedNamingThoseThatDo) {
  PlanRequest request;
  request.scenarios = {"single-stream"};
  const auto refused = CheckRunRequest(request, {"concurrency"}, FlagSpelling);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("--concurrency applies to the server or offline scenario"), std::string::npos)
      << refused.message();
  const auto sessions = CheckRunRequest(request, {"sessions"}, FlagSpelling);
  ASSERT_FALSE(sessions.ok());
  EXPECT_NE(sessions.message().find("multi-stream, server, offline, soak, burst or camera"), std::string::npos)
      << sessions.message();
  request.scenarios = {"offline"};
  EXPECT_TRUE(CheckRunRequest(request, {"concurrency", "batch"}, FlagSpelling).ok());
  // A soak's own duration replaces the requested one, before validation.
  RunSettings requested;
  requested.min_duration_ms = 10;
  requested.max_duration_ms = 20;
  const RunSettings soak = ValidateForScenario("soak:90s", requested).value().values;
  EXPECT_EQ(soak.min_duration_ms, 90'000);
  EXPECT_EQ(soak.max_duration_ms, 90'000);
}

}  // namespace
}  // namespace edgebench
