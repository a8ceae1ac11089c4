// Planning called directly: the effective settings a case runs with are decided once, when it is
// planned, from its scenario (a soak's length decides its worker's timeout), and travel with it.
#include "plan/plan.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../test_util.h"
#include "backends/target.h"
#include "load/scenario_spec.h"

namespace edgebench {
namespace {

class PlanTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterBuiltBackends(registry_, testing::BackendPluginDir()); }

  PlanRequest NullRequest(std::vector<std::string> scenarios) {
    PlanRequest request;
    auto model = ParseModelArgument("null");
    EXPECT_TRUE(model.ok()) << model.error();
    request.models.push_back({model.take(), {}, {}});
    auto target = ParseTarget("null:sleep?us=2000");
    EXPECT_TRUE(target.ok()) << target.error();
    request.targets.push_back(target.take());
    request.scenarios = std::move(scenarios);
    return request;
  }

  const PlannedCase& Only(const Result<std::vector<PlannedCase>>& plan, const std::string& scenario) {
    EXPECT_TRUE(plan.ok()) << plan.error();
    for (const PlannedCase& c : plan.value()) {
      if (c.spec.scenario == scenario) return c;
    }
    ADD_FAILURE() << "no case of scenario " << scenario;
    return plan.value().front();
  }

  Registry registry_;
};

constexpr int64_t kMinute = 60 * 1000;

TEST_F(PlanTest, ASoakOfFiveOrThirtyMinutesGetsAWorkerTimeoutLongerThanItself) {
  // With the default --max-duration (60 s) the worker's timeout was 240 s whatever the soak's
  // length: soak:5m was killed after 4 minutes.
  auto plan = PlanCases(NullRequest({"soak:5m", "soak:30m"}), registry_);
  for (const auto& [scenario, length] : {std::pair{"soak:300s", 5 * kMinute}, std::pair{"soak:1800s", 30 * kMinute}}) {
    const CaseSpec& spec = Only(plan, scenario).spec;
    ASSERT_TRUE(spec.effective.has_value()) << scenario;
    EXPECT_EQ(spec.effective->min_duration_ms, length) << scenario;
    EXPECT_EQ(spec.effective->max_duration_ms, length) << scenario;
    EXPECT_EQ(spec.effective->min_queries, 1) << scenario;
    EXPECT_GT(spec.effective->case_timeout_ms, length + kMinute) << scenario;
    // What was asked for stays as asked: the record keeps both.
    EXPECT_EQ(spec.settings.max_duration_ms, RunSettings{}.max_duration_ms) << scenario;
    EXPECT_EQ(spec.settings.case_timeout_ms, 0) << scenario;
  }
}

TEST_F(PlanTest, AnExplicitTimeoutIsKeptAndOtherScenariosRunAsRequested) {
  PlanRequest request = NullRequest({"single-stream", "server:100", "soak:1m"});
  request.settings.case_timeout_ms = 12345;
  request.settings.max_duration_ms = 3000;
  auto plan = PlanCases(request, registry_);
  ASSERT_TRUE(plan.ok()) << plan.error();
  ASSERT_EQ(plan.value().size(), 3u);
  for (const PlannedCase& c : plan.value()) {
    ASSERT_TRUE(c.spec.effective.has_value());
    EXPECT_EQ(c.spec.effective->case_timeout_ms, 12345) << c.spec.scenario;
  }
  EXPECT_EQ(Only(plan, "server:100").spec.effective->max_duration_ms, 3000);
  EXPECT_EQ(Only(plan, "soak:60s").spec.effective->max_duration_ms, kMinute);
}

TEST_F(PlanTest, TheDerivedTimeoutCoversLoadingAndWarmupBeyondTheMaximumDuration) {
  PlanRequest request = NullRequest({"single-stream"});
  request.settings.max_duration_ms = 10000;
  const auto plan = PlanCases(request, registry_);
  const CaseSpec& spec = Only(plan, "single-stream").spec;
  EXPECT_EQ(spec.effective->case_timeout_ms, 2 * 10000 + 120000);
}

TEST_F(PlanTest, BadSettingsAreRefusedWhenPlanningNamingTheSetting) {
  PlanRequest request = NullRequest({"soak:1m"});
  request.settings.window_ms = 0;
  auto plan = PlanCases(request, registry_);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("--window"), std::string::npos) << plan.error();
  EXPECT_NE(plan.error().find("soak:60s"), std::string::npos) << plan.error();
}

TEST_F(PlanTest, TheEffectiveSettingsReachTheWorkerThroughTheCaseDescription) {
  const auto plan = PlanCases(NullRequest({"soak:30m"}), registry_);
  const CaseSpec& spec = Only(plan, "soak:1800s").spec;
  auto back = CaseSpecFromJson(CaseSpecToJson(spec));
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_TRUE(back.value().effective.has_value());
  EXPECT_EQ(back.value().effective->case_timeout_ms, spec.effective->case_timeout_ms);
  EXPECT_EQ(back.value().effective->max_duration_ms, 30 * kMinute);
  EXPECT_EQ(back.value().case_key, spec.case_key);
}

TEST_F(PlanTest, CaseKeysTellScenariosApartAndIgnoreTheTimeout) {
  PlanRequest request = NullRequest({"single-stream", "soak:1m", "soak:2m", "server:100", "server:100.5", "server:1",
                                     "server:1000000", "server:1600000", "server:16"});
  auto plan = PlanCases(request, registry_);
  ASSERT_TRUE(plan.ok()) << plan.error();
  std::set<std::string> keys;
  for (const PlannedCase& c : plan.value()) {
    EXPECT_EQ(c.spec.case_key.size(), 16u);
    EXPECT_EQ(c.spec.case_key, CaseKey(c.spec));
    keys.insert(c.spec.case_key);
  }
  EXPECT_EQ(keys.size(), plan.value().size());
  request.settings.case_timeout_ms = 999999;
  auto again = PlanCases(request, registry_);
  ASSERT_TRUE(again.ok()) << again.error();
  for (size_t i = 0; i < plan.value().size(); ++i) {
    EXPECT_EQ(again.value()[i].spec.case_key, plan.value()[i].spec.case_key);
  }
}

TEST_F(PlanTest, TheModelsBytesDecideTheKeyForEveryBackendTheNullOneIncluded) {
  const std::string path = testing::TempFilePath("plan_test_", "model.bin");
  auto key_of = [&](const std::string& bytes) {
    std::ofstream(path, std::ios::trunc) << bytes;
    PlanRequest request = NullRequest({"single-stream"});
    auto model = ParseModelArgument("m=" + path);
    EXPECT_TRUE(model.ok()) << model.error();
    request.models = {{model.take(), {}, {}}};
    auto plan = PlanCases(request, registry_);
    EXPECT_TRUE(plan.ok()) << plan.error();
    return plan.ok() ? plan.value().at(0).spec.case_key : std::string();
  };
  const std::string first = key_of("one model");
  EXPECT_EQ(key_of("one model"), first);
  EXPECT_NE(key_of("another model"), first) << "the same path holding other bytes is another case";
  std::filesystem::remove(path);
}

TEST_F(PlanTest, APlanPastTheCaseLimitIsRefusedBeforeAnyCaseIsMade) {
  PlanRequest request = NullRequest({"llm"});
  for (int64_t n = 1; n <= 101; ++n) {
    request.prompt_lengths.push_back(n);
    request.gen_lengths.push_back(n);
  }
  auto plan = PlanCases(request, registry_);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("expands to 10404 cases, more than the limit of 10000"), std::string::npos)
      << plan.error();
  EXPECT_NE(CheckCaseCount(1e30, "x").message().find("expands to 1e+30 cases"), std::string::npos);
  EXPECT_TRUE(CheckCaseCount(10'000, "x").ok());
}

TEST_F(PlanTest, SettlingAgainAfterAChangeRedecidesTheEffectiveSettingsAndTheKey) {
  const auto plan = PlanCases(NullRequest({"single-stream"}), registry_);
  CaseSpec spec = Only(plan, "single-stream").spec;
  const std::string key = spec.case_key;
  spec.scenario = "soak:10m";
  ASSERT_TRUE(SettleCase(spec).ok());
  EXPECT_EQ(spec.effective->max_duration_ms, 10 * kMinute);
  EXPECT_GT(spec.effective->case_timeout_ms, 10 * kMinute);
  EXPECT_NE(spec.case_key, key);
}

}  // namespace
}  // namespace edgebench
