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
  EXPECT_NE(unknown.output.find("suite.yaml:10:3: accuracy: colour: `edgebench accuracy` has no option --colour"),
            std::string::npos)
      << unknown.output;
  auto bad_value = RunCommand(Executable() + " suite " + WriteSuite("accuracy: {limit: lots}\n", "[accuracy]") + " 2>&1");
  EXPECT_EQ(bad_value.exit_code, 2) << bad_value.output;
  EXPECT_NE(bad_value.output.find("accuracy: limit: expected an integer of at least 0; got 'lots'"), std::string::npos)
      << bad_value.output;
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
  EXPECT_NE(help.output.find("has no option --help"), std::string::npos) << help.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/out/results.jsonl")) << "nothing ran";
}

// Drift of GGUF language models in a suite: the model's variants compared by per-token KL
// divergence (runner/token_drift_mode.h), each side a record with its token_drift section, and
// the block's own GGUF flags (max_tokens, random_prompts) applied.
TEST_F(SuiteModesCli, GgufVariantsDriftByTokenInASuite) {
  const std::string manifest = dir_ + "/llama.json";
  std::ofstream(manifest) << R"({"name": "llama-tiny", "artifacts": [{"path": ")" << TestModel("llama-tiny.gguf")
                          << R"(", "variant": "f32"}, {"path": ")" << TestModel("llama-tiny-q8_0.gguf")
                          << R"(", "variant": "q8_0"}]})";
  const std::string path = dir_ + "/suite.yaml";
  std::ofstream(path) << "name: gguf\nout: out\nmodels:\n  - manifest: " << manifest
                      << "\ntargets: [llamacpp:cpu]\nscenarios: [drift]\n"
                      << "drift: {reference: f32, candidate: q8_0, random_prompts: 2, max-tokens: 8}\n";
  auto run = RunCommand(Executable() + " suite " + path + " 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto store = ReadStore(dir_ + "/out/results.jsonl");
  ASSERT_TRUE(store.ok()) << store.error();
  int candidates = 0;
  for (const Record& r : store.value().records) {
    ASSERT_TRUE(r.token_drift.has_value()) << r.case_key;
    EXPECT_EQ(r.scenario, "drift");
    EXPECT_EQ(r.token_drift->prompt_source, "random");
    if (r.token_drift->drift && !r.token_drift->is_reference) {
      ++candidates;
      EXPECT_EQ(r.token_drift->drift->positions, 2 * 7);  // 2 prompts of 8 tokens, 7 scored each
      EXPECT_GE(r.token_drift->drift->mean_kld.value, 0);
    }
  }
  EXPECT_EQ(candidates, 1);
  EXPECT_EQ(store.value().records.size(), 3u);  // the reference's run, itself, the candidate
  EXPECT_NE(run.output.find("mean KLD (nats)"), std::string::npos) << run.output;  // its table's columns
}

}  // namespace
}  // namespace edgebench
