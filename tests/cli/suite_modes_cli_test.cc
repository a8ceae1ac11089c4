// A suite file that lists the modes beside a measured scenario: accuracy, agree and drift,
// each planned from its block of the command's own flags, run by the same loop, stored, shown
// in tables of their own, and resumed like every case. Mistakes in a block are errors before
// anything runs, with the line and the command's own words.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

class SuiteModesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TempFilePath("suite_modes_", "dir");
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string WriteSuite(const std::string& blocks, const std::string& scenarios) {
    const std::string path = dir_ + "/suite.yaml";
    std::ofstream(path) << "name: modes\nout: out\nmodels:\n  - manifest: " << TestModel("fashion/fashion_softmax.json")
                        << "\ntargets: [ort:cpu, ort:xnnpack]\nscenarios: " << scenarios
                        << "\nsettings: {min_queries: 10, min_duration_ms: 0, warmup: 1}\n"
                        << blocks;
    return path;
  }

  std::string dir_;
};

constexpr const char* kBlocks = R"(accuracy: {limit: 100, variant: "fp32,coarse"}
agree:
  reference: ort:xnnpack
drift:
  reference: fp32
  candidate: coarse
  samples: 2
)";

TEST_F(SuiteModesCli, EveryModeRunsStoresAndResumesBesideAMeasuredScenario) {
  const std::string suite = WriteSuite(kBlocks, "[single-stream, accuracy, agree, drift]");
  auto r = RunCommand(Executable() + " suite " + suite + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* table : {"scenario: accuracy", "scenario: agree", "scenario: drift", "top-1 (%)", "first drift"}) {
    EXPECT_NE(r.output.find(table), std::string::npos) << table << "\n" << r.output;
  }
  const std::string store = dir_ + "/out/results.jsonl";
  auto records = ReadRecords(store);
  ASSERT_TRUE(records.ok()) << records.error();
  // 2 single-stream + 4 accuracy (2 variants x 2 targets) + 2 agree + 4 drift (2 sides x 2 targets).
  std::map<std::string, int> by_scenario;
  for (const Record& rec : records.value()) {
    ++by_scenario[rec.scenario];
    EXPECT_EQ(rec.status, CaseStatus::kOk) << rec.scenario << " " << rec.requested_target << ": " << rec.error;
  }
  EXPECT_EQ(by_scenario["single-stream"], 2);
  EXPECT_EQ(by_scenario["accuracy"], 4);
  EXPECT_EQ(by_scenario["agree"], 2);
  EXPECT_EQ(by_scenario["drift"], 4);
  for (const Record& rec : records.value()) {
    if (rec.scenario == "agree" && rec.agreement && !rec.agreement->is_reference) {
      EXPECT_EQ(rec.agreement->reference_target, "ort:xnnpack") << "the block's --reference reached the plan";
    }
    if (rec.scenario == "accuracy") {
      EXPECT_EQ(rec.accuracy->labels.size(), 100u) << "the block's --limit";
    }
  }
  // Resumed with everything stored: nothing runs again.
  auto resumed = RunCommand(Executable() + " suite " + suite + " --resume 2>&1");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("12 already in"), std::string::npos) << resumed.output;
  EXPECT_EQ(ReadRecords(store).value().size(), 12u);
}

TEST_F(SuiteModesCli, ABlocksMistakesAreErrorsWithTheLineBeforeAnythingRuns) {
  auto unknown = RunCommand(Executable() + " suite " +
                            WriteSuite("accuracy:\n  limit: 10\n  colour: blue\n", "[accuracy]") + " 2>&1");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("suite.yaml:9: accuracy: "), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("--colour"), std::string::npos) << unknown.output;
  auto bad_value = RunCommand(Executable() + " suite " + WriteSuite("accuracy: {limit: lots}\n", "[accuracy]") + " 2>&1");
  EXPECT_EQ(bad_value.exit_code, 2) << bad_value.output;
  EXPECT_NE(bad_value.output.find("--limit"), std::string::npos) << bad_value.output;
  auto missing = RunCommand(Executable() + " suite " + WriteSuite("drift: {candidate: coarse}\n", "[drift]") + " 2>&1");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("--reference is required"), std::string::npos) << missing.output;
  auto not_listed = RunCommand(Executable() + " suite " + WriteSuite("agree: {seed: 1}\n", "[single-stream]") + " 2>&1");
  EXPECT_EQ(not_listed.exit_code, 2) << not_listed.output;
  EXPECT_NE(not_listed.output.find("scenarios does not include agree"), std::string::npos) << not_listed.output;
  auto dashes = RunCommand(Executable() + " suite " + WriteSuite("agree: {--seed: 1}\n", "[agree]") + " 2>&1");
  EXPECT_EQ(dashes.exit_code, 2) << dashes.output;
  EXPECT_NE(dashes.output.find("without its dashes"), std::string::npos) << dashes.output;
  auto help = RunCommand(Executable() + " suite " + WriteSuite("accuracy: {help: true}\n", "[accuracy]") + " 2>&1");
  EXPECT_EQ(help.exit_code, 2) << help.output;
  EXPECT_NE(help.output.find("not expected: --help"), std::string::npos) << help.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/out/results.jsonl")) << "nothing ran";
}

}  // namespace
}  // namespace edgebench
