// `edgebench llm` as a user runs it, on a tiny generated model.
#include <gtest/gtest.h>

#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

TEST(LlmCli, OneRecordPerPromptAndGenerationLength) {
  auto r = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                      " --prompt 8,16 --gen 4 --repeat 3 --warmup 1 --format jsonl"
                      " --target 'llamacpp:cpu?threads=1'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::istringstream lines(r.output);
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const auto& llm = records[i]["llm"];
    EXPECT_EQ(records[i]["config"]["scenario"], "llm");
    EXPECT_EQ(llm["prompt_tokens_run"], i == 0 ? 8 : 16);
    EXPECT_EQ(llm["measured"].size(), 3u);
    EXPECT_EQ(llm["warmup"].size(), 1u);
    EXPECT_EQ(llm["summary"]["tpot_steps"], 9);  // 3 requests x 3 gaps
    EXPECT_GT(llm["summary"]["prefill_tokens_per_s"].get<double>(), 0);
    EXPECT_TRUE(llm["model"]["random_weights"].get<bool>());
    EXPECT_EQ(llm["prompt_source"], "seeded token ids (seed 0)");
    EXPECT_EQ(records[i]["notes"][0], "random weights: latency only");
  }
}

TEST(LlmCli, TableAndErrors) {
  auto table = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                          " --prompt 8 --gen 2 --repeat 2 --sequences 2 2>&1");
  EXPECT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("TTFT p50 (ms)"), std::string::npos);
  EXPECT_EQ(table.output.find("llama_model_loader"), std::string::npos) << "llama.cpp's loading log leaked";
  auto corrupt = RunCommand(Executable() + " llm " + TestModel("llama-tiny-truncated.gguf") +
                            " --gen 2 --repeat 1 --format jsonl");
  EXPECT_EQ(corrupt.exit_code, 1);
  const auto record = nlohmann::json::parse(corrupt.output);
  EXPECT_EQ(record["status"], "failed");
  EXPECT_EQ(record["failure"]["stage"], "load");
  auto bad = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") + " --prompt 8,x 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--prompt"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
