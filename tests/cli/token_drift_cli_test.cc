// Per-token drift of llama-tiny's quantizations from its f16 file, through RunTokenDrift and the
// edgebench executable's workers (the reference and each candidate in their own process).
#include "cli/token_drift_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::TestModel;

struct DriftRun {
  int exit_code = -1;
  std::string out;
  std::string err;
  std::vector<nlohmann::json> lines;  // --format json
};

DriftRun Drift(TokenDriftOptions options) {
  Registry registry;  // the parent loads no model; the workers have their own
  CommandContext context{registry, testing::Executable(), 0, {}};
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  DriftRun run;
  run.exit_code = RunTokenDrift(options, context);
  run.out = ::testing::internal::GetCapturedStdout();
  run.err = ::testing::internal::GetCapturedStderr();
  if (options.format == "json") {
    std::istringstream in(run.out);
    for (std::string line; std::getline(in, line);) run.lines.push_back(nlohmann::json::parse(line));
  }
  return run;
}

TokenDriftOptions TinyOptions() {
  TokenDriftOptions o;
  o.reference = TestModel("llama-tiny.gguf");
  o.candidates = {TestModel("llama-tiny-q8_0.gguf"), TestModel("llama-tiny-q4_0.gguf")};
  o.target = ParseTarget("llamacpp:cpu?threads=2").take();
  o.max_tokens = 64;
  o.format = "json";
  return o;
}

TEST(TokenDriftCli, QuantizationsDriftInOrderAndTheReferenceNotAtAll) {
  const DriftRun run = Drift(TinyOptions());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  const nlohmann::json& self = run.lines[0];
  const nlohmann::json& q8 = run.lines[1];
  const nlohmann::json& q4 = run.lines[2];
  EXPECT_TRUE(self["is_reference"].get<bool>());
  EXPECT_EQ(self["prompt_source"], "built-in");
  EXPECT_EQ(self["definitions"], "llama-perplexity --kl-divergence");
  EXPECT_EQ(self["note"], "random weights: drift only, no task meaning");
  // The same model evaluated twice on the CPU: bit-identical logits, no divergence at all.
  EXPECT_EQ(self["drift"]["mean_kld"]["value"].get<double>(), 0.0);
  EXPECT_EQ(self["drift"]["max_kld"].get<double>(), 0.0);
  EXPECT_EQ(self["drift"]["same_top"]["value"].get<double>(), 1.0);
  EXPECT_EQ(self["drift"]["rms_delta_p"]["value"].get<double>(), 0.0);

  // Every prompt has at least 2 tokens; positions are tokens - 1 per prompt, the same for all.
  const int64_t positions = self["drift"]["positions"].get<int64_t>();
  EXPECT_GT(positions, 8 * 1);
  int64_t summed = 0;
  for (const auto& p : q8["per_prompt"]) summed += p["positions"].get<int64_t>();
  EXPECT_EQ(summed, positions);
  EXPECT_EQ(q8["drift"]["positions"].get<int64_t>(), positions);
  EXPECT_EQ(q8["per_prompt"].size(), DefaultDriftPrompts().size());

  const double kld8 = q8["drift"]["mean_kld"]["value"].get<double>();
  const double kld4 = q4["drift"]["mean_kld"]["value"].get<double>();
  EXPECT_GT(kld8, 0.0);
  EXPECT_LT(kld8, kld4) << "Q8_0 should drift less than Q4_0";
  EXPECT_GE(q8["drift"]["same_top"]["value"].get<double>(), q4["drift"]["same_top"]["value"].get<double>());
  EXPECT_GE(q4["drift"]["max_kld"].get<double>(), kld4);
  EXPECT_GT(q4["drift"]["mean_kld"]["uncertainty"].get<double>(), 0.0);
  EXPECT_EQ(q4["drift"]["kld_percentiles"].size(), 9u);
}

TEST(TokenDriftCli, TableNamesTheRowsAndTheRandomWeights) {
  TokenDriftOptions o = TinyOptions();
  o.format = "table";
  o.candidates = {TestModel("llama-tiny-q4_0.gguf")};
  const DriftRun run = Drift(o);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("random weights: drift only, no task meaning"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("(reference itself)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("llama-tiny-q4_0.gguf"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("mean KLD"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("8 built-in English sentences"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("note: the reference against itself"), std::string::npos) << run.out;
}

TEST(TokenDriftCli, SeededRandomSequencesAndAStore) {
  TokenDriftOptions o = TinyOptions();
  o.random_prompts = 3;
  o.max_tokens = 17;
  o.seed = 5;
  o.candidates = {TestModel("llama-tiny-q8_0.gguf")};
  o.out_store = testing::TempFilePath("token_drift_", "store");
  const DriftRun run = Drift(o);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  ASSERT_EQ(run.lines.size(), 2u);
  EXPECT_EQ(run.lines[1]["prompt_source"], "random");
  EXPECT_EQ(run.lines[1]["drift"]["positions"].get<int64_t>(), 3 * 16);
  std::ifstream stored(o.out_store + "/token_drift.jsonl");
  int lines = 0;
  for (std::string line; std::getline(stored, line);) {
    EXPECT_EQ(nlohmann::json::parse(line)["kind"], "token_drift");
    ++lines;
  }
  EXPECT_EQ(lines, 2);
  std::filesystem::remove_all(o.out_store);
}

TEST(TokenDriftCli, ModelsWithAnotherVocabularyAreRefused) {
  TokenDriftOptions o = TinyOptions();
  o.candidates = {TestModel("phi3-tiny.gguf")};  // vocabulary 2112, llama-tiny's 2048
  o.reference_row = false;
  const DriftRun run = Drift(o);
  EXPECT_EQ(run.exit_code, 1) << run.out;
  ASSERT_EQ(run.lines.size(), 1u) << run.out;
  EXPECT_EQ(run.lines[0]["status"], "failed");
  const std::string error = run.lines[0]["error"].get<std::string>();
  EXPECT_NE(error.find("do not share a tokenizer"), std::string::npos) << error;
  EXPECT_NE(error.find("2112"), std::string::npos) << error;
}

TEST(TokenDriftCli, PromptsFromAFileAndBadOptions) {
  TokenDriftOptions o = TinyOptions();
  o.prompts_file = testing::WriteTempFile("token_drift_", "prompts.txt", "one two three four\n\nfive six seven\n");
  o.candidates = {TestModel("llama-tiny-q8_0.gguf")};
  const DriftRun run = Drift(o);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.lines[0]["prompt_source"], "file");
  EXPECT_EQ(run.lines[0]["per_prompt"].size(), 2u);

  TokenDriftOptions both = o;
  both.random_prompts = 2;
  EXPECT_EQ(Drift(both).exit_code, 2);
  TokenDriftOptions short_prompts = TinyOptions();
  short_prompts.max_tokens = 1;
  EXPECT_EQ(Drift(short_prompts).exit_code, 2);
  TokenDriftOptions missing = TinyOptions();
  missing.candidates = {TestModel("absent.gguf")};
  const DriftRun absent = Drift(missing);
  EXPECT_EQ(absent.exit_code, 2);
  EXPECT_NE(absent.err.find("absent.gguf"), std::string::npos) << absent.err;
  std::filesystem::remove(o.prompts_file);
}

}  // namespace
}  // namespace edgebench
