// --rounds end to end on null targets: the interleaved order in the records, the summary after
// the table with a 3x slower target called slower, a suite's rounds in its dry run and resumed
// round by round, and bad flags. The verdict rule on known values is tested in
// tests/report/rounds_summary_test.cc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

const std::string kTargets = " -t 'null:sleep?us=1000,null:sleep?us=3000'";
// --allow-busy and --max-cv 10: the tests beside this one make the machine busy, which is not
// what it tests.
const std::string kQuick = " --warmup 2 --min-queries 20 --min-duration 50 --allow-busy --max-cv 10";

TEST(RoundsCli, RecordsCarryTheirRoundInTheInterleavedOrder) {
  auto r = RunCommand(Executable() + " run x" + kTargets + kQuick + " --rounds 3 --format jsonl 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<nlohmann::json> records;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 6u) << r.output;
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& round = records[i]["round"];
    EXPECT_EQ(round["round"], static_cast<int>(i / 2 + 1)) << round;
    EXPECT_EQ(round["rounds"], 3);
    EXPECT_EQ(round["order"], "interleaved");
    EXPECT_EQ(round["position"], static_cast<int>(i % 2 + 1));
    EXPECT_EQ(records[i]["config"]["requested_target"], i % 2 == 0 ? "null:sleep?us=1000" : "null:sleep?us=3000");
  }
  EXPECT_EQ(records[0]["case_key"], records[2]["case_key"]) << "a case keeps its key across rounds";
}

TEST(RoundsCli, TheTableEndsWithEachCaseAcrossRoundsAndARanking) {
  if (testing::kSanitizerBuild) GTEST_SKIP() << "a sanitizer build's records are all INVALID: no round counts";
  auto r = RunCommand(Executable() + " run x" + kTargets + kQuick + " --rounds 3 --order shuffled:5 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("rounds: 3, shuffled; each case's median over its VALID rounds"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("ranking of x (single-stream) by median p50:"), std::string::npos) << r.output;
  // 3 ms against 1 ms sleeps: slower, whatever the machine does beside it.
  EXPECT_NE(r.output.find("2. null:sleep?us=3000  "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("slower than null:sleep?us=1000 (+"), std::string::npos) << r.output;
}

TEST(RoundsCli, ASuiteListsItsRoundsAndResumesRoundByRound) {
  const auto dir = std::filesystem::temp_directory_path() / ("edgebench_rounds_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "model.bin") << "the null backend does not read its model";
  std::ofstream(dir / "suite.yaml") << "name: rounds\nout: out\n"
                                       "settings: {warmup: 1, min_queries: 5, min_duration_ms: 20, max_cv: 10}\n"
                                       "models: [model.bin]\ntargets: [\"null:sleep?us=500\", \"null:sleep?us=700\"]\n";
  const std::string suite = (dir / "suite.yaml").string();
  auto dry = RunCommand(Executable() + " suite " + suite + " --rounds 5 --dry-run 2>&1");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_NE(dry.output.find("10 cases (1 models x 2 targets x 1 scenarios) x 5 rounds (2 a round)"), std::string::npos) << dry.output;
  EXPECT_NE(dry.output.find("  round 5"), std::string::npos) << dry.output;

  auto first = RunCommand(Executable() + " suite " + suite + " --rounds 2 --allow-busy --format jsonl 2>/dev/null");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  // Three rounds asked of a store that holds two: only round 3 runs.
  auto resumed = RunCommand(Executable() + " suite " + suite + " --rounds 3 --resume --allow-busy --format jsonl 2>&1");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("4 already in"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find(", 2 to run"), std::string::npos) << resumed.output;
  std::filesystem::remove_all(dir);
}

TEST(RoundsCli, BadRoundFlagsAreRefused) {
  auto zero = RunCommand(Executable() + " run x -t null:sleep --rounds 0 2>&1");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.output.find("--rounds 0 is outside 1 to 1000"), std::string::npos) << zero.output;
  auto order = RunCommand(Executable() + " run x -t null:sleep --rounds 2 --order sideways 2>&1");
  EXPECT_EQ(order.exit_code, 2);
  EXPECT_NE(order.output.find("--order 'sideways'"), std::string::npos) << order.output;
}

}  // namespace
}  // namespace edgebench
