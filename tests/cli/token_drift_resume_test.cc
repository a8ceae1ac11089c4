// edgebench drift on GGUF language models through RunPlan: a record per side (the reference's
// run, the reference against itself, each candidate) with its token_drift section and the
// monitor's series; killed mid-way and resumed, only the sides the store lacks run, the
// reference's logits made again without a second record.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

TEST(TokenDriftResumeCli, EachSideIsARecordAndResumeRunsOnlyTheRest) {
  const std::string dir = TempFilePath("token_drift_", "resume");
  std::filesystem::remove_all(dir);
  const std::string tiny = TestModel("llama-tiny.gguf");
  const std::string command = Executable() + " drift --reference " + tiny + " --candidate " + tiny +
                              " --max-tokens 8 --random-prompts 2 --out " + dir;
  auto first = RunCommand(command + " 2>&1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string store = dir + "/results.jsonl";
  auto records = ReadRecords(store);
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 3u) << "the reference's run, itself, the candidate";
  std::set<std::string> keys;
  for (const Record& r : records.value()) {
    keys.insert(r.case_key);
    EXPECT_EQ(r.scenario, "drift");
    ASSERT_TRUE(r.token_drift.has_value());
    ASSERT_TRUE(r.monitor.has_value());
    EXPECT_FALSE(r.monitor->series.t_ns.empty());
  }
  EXPECT_EQ(keys.size(), 3u) << "a candidate that is the reference's file is still a case of its own";
  EXPECT_EQ(records.value()[0].token_drift->role, "reference");
  EXPECT_EQ(records.value()[0].token_drift->prompt_tokens, (std::vector<int64_t>{8, 8}));
  ASSERT_TRUE(records.value()[2].token_drift->drift.has_value());
  EXPECT_EQ(records.value()[2].token_drift->drift->max_kld, 0) << "the same file: no drift";

  {  // As if killed after the reference's run.
    std::ifstream in(store);
    std::string line;
    std::getline(in, line);
    in.close();
    std::ofstream(store, std::ios::trunc) << line << "\n";
  }
  auto resumed = RunCommand(command + " --resume 2>&1");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(resumed.output.find("case 1/3"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("case 3/3"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("(reference itself)"), std::string::npos) << resumed.output;
  auto after = ReadRecords(store);
  ASSERT_TRUE(after.ok()) << after.error();
  EXPECT_EQ(after.value().size(), 3u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
