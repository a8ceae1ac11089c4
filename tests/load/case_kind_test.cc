// What a scenario text stands for, asked of the registry (load/case_kind.h), and no scenario
// name compared as a string anywhere else in src/.
#include "load/case_kind.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace edgebench {
namespace {

TEST(CaseKind, EachScenarioTextIsALoadALanguageModelOrAMode) {
  for (const char* load : {"single-stream", "multi-stream:4", "server:200", "offline", "soak:30m", "burst:4/100ms"}) {
    EXPECT_EQ(CaseKindOf(load), CaseKind::kLoad) << load;
  }
  EXPECT_EQ(CaseKindOf("llm"), CaseKind::kLanguageModel);
  EXPECT_EQ(CaseKindOf("agree"), CaseKind::kAgree);
  EXPECT_EQ(CaseKindOf("accuracy"), CaseKind::kAccuracy);
  EXPECT_EQ(CaseKindOf("drift"), CaseKind::kDrift);
  EXPECT_EQ(CaseKindOf("llmx"), CaseKind::kUnknown);
  EXPECT_EQ(CaseKindOf(""), CaseKind::kUnknown);
  EXPECT_STREQ(ModeScenarioName(CaseKind::kDrift), "drift");
  EXPECT_STREQ(ModeScenarioName(CaseKind::kLoad), "");
}

TEST(CaseKind, TheRulesAreTheEntrysOwn) {
  EXPECT_TRUE(RulesOfScenario("single-stream").baseline);
  EXPECT_FALSE(RulesOfScenario("multi-stream:1").baseline);
  for (const char* s : {"multi-stream:2", "server:10", "offline"}) EXPECT_TRUE(RulesOfScenario(s).compared_by_throughput) << s;
  for (const char* s : {"single-stream", "soak:1s", "burst:2", "llm"}) EXPECT_FALSE(RulesOfScenario(s).compared_by_throughput) << s;
  EXPECT_TRUE(RulesOfScenario("server:2.5").server);
  EXPECT_TRUE(RulesOfScenario("offline").throughput);
  const ScenarioRecordRules none = RulesOfScenario("accuracy");
  EXPECT_FALSE(none.baseline || none.server || none.throughput || none.judge_cv || none.compared_by_throughput);
}

// "scenario == \"llm\"", "scenario.rfind(\"server:\"": a scenario's meaning read from its name
// outside the registry (src/load/) would go stale when a scenario is added or renamed.
TEST(CaseKind, NoScenarioNameIsComparedOutsideTheRegistry) {
  const std::filesystem::path src = std::filesystem::path(EDGEBENCH_SOURCE_DIR) / "src";
  const std::vector<std::string> comparisons = {"scenario == \"", "scenario != \"", "scenario.rfind(\"",
                                                "scenarios.end(), \""};
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file()) continue;
    const std::string relative = std::filesystem::relative(entry.path(), src).string();
    if (relative.rfind("load/", 0) == 0) continue;
    const std::string extension = entry.path().extension().string();
    if (extension != ".cc" && extension != ".h") continue;
    std::ifstream in(entry.path());
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      for (const std::string& comparison : comparisons) {
        if (line.find(comparison) != std::string::npos) found.push_back(relative + ":" + std::to_string(number) + ": " + line);
      }
    }
  }
  EXPECT_EQ(found, std::vector<std::string>{}) << "ask load/case_kind.h instead";
}

}  // namespace
}  // namespace edgebench
