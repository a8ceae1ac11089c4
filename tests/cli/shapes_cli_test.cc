// `edgebench shapes`: a cell per shape and target, each shape isolated in its own worker, and
// bad sweeps refused before anything runs (exit 2).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

// Short cases: a sweep of ten shapes stays within seconds (the hang's --timeout dominates).
const char* const kQuickShapes = " --warmup 2 --min-queries 10 --min-duration 0 --max-duration 2000";

std::vector<nlohmann::json> JsonLines(const std::string& path) {
  std::vector<nlohmann::json> records;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) records.push_back(nlohmann::json::parse(line));
  return records;
}

TEST(ShapesCli, EachShapeIsItsOwnCellAndAMisbehavingShapeCostsOnlyItsCell) {
  const std::string dir = testing::TempFilePath("shapes_", "store");
  // abort at batch 4, hang at 8, allocate without bound at 16; a second target runs every shape.
  const std::string faulty = "null:cpu?us=200&dynamic=true&abort_batch=4&hang_batch=8&balloon_batch=16";
  const std::string healthy = "null:sleep?us=100&dynamic=true";
  // The timeout is what makes the hang a cell of its own, and every other cell must finish
  // within it: each takes about 0.05 s (0.2 s under ASan), so 10 s leaves a margin of fifty
  // for a machine that two test suites and a build share (3 s was a margin of fifteen).
  auto r = RunCommand(Executable() + " shapes none --target '" + faulty + "," + healthy +
                      "' --dim batch=1,2,4,8,16" + kQuickShapes + " --timeout 10000 --case-memory 300 --out " + dir +
                      " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1) << r.output;  // some cells did not measure
  const auto records = JsonLines(dir + "/results.jsonl");
  ASSERT_EQ(records.size(), 10u) << r.output;
  // Each target's shapes in sweep order, the faulty target first.
  const std::vector<std::string> expected = {"ok", "ok", "crashed", "timeout", "oom",
                                             "ok", "ok", "ok",      "ok",      "ok"};
  const std::vector<int> batches = {1, 2, 4, 8, 16, 1, 2, 4, 8, 16};
  for (size_t i = 0; i < records.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    EXPECT_EQ(records[i]["status"], expected[i]) << records[i].dump().substr(0, 2000);
    EXPECT_EQ(records[i]["config"]["requested_target"], i < 5 ? faulty : healthy);
    EXPECT_EQ(records[i]["config"]["dims"]["batch"], batches[i]);
  }
  EXPECT_EQ(records[2]["failure"]["signal"], 6);  // SIGABRT
  // The matrix: a row per shape, a column per target, a reference per failure.
  EXPECT_NE(r.output.find("shape sweep: none"), std::string::npos) << r.output;
  // The notes' numbers depend on how many cells came before: a 10-query cell on a busy machine
  // may be INVALID (its note comes first), so the references are matched without them.
  EXPECT_NE(r.output.find("crashed: signal 6 (SIGABRT) ["), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("timeout ["), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("oom ["), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("] " + faulty + " at batch=16: the worker's resident memory reached"), std::string::npos)
      << r.output;
  for (const char* row : {"\nbatch=1 ", "\nbatch=2 ", "\nbatch=4 ", "\nbatch=8 ", "\nbatch=16 "}) {
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
  }
  RunCommand("rm -rf " + dir);
}

TEST(ShapesCli, TheSweepIsTheProductOfItsDimsFirstDimSlowest) {
  // The null model has one symbolic axis; '*' binds whatever --dim leaves free (here nothing, which
  // is allowed), so every shape measures and the records show the product and its order.
  auto r = RunCommand(Executable() + " shapes none --target 'null:sleep?us=50&dynamic=true' --dim batch=1,2" +
                      " --dim '*=3,5'" + kQuickShapes + " --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 4u) << r.output;
  const std::vector<std::pair<int, int>> expected = {{1, 3}, {1, 5}, {2, 3}, {2, 5}};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(records[i]["config"]["dims"]["batch"], expected[i].first);
    EXPECT_EQ(records[i]["config"]["dims"]["*"], expected[i].second);
    EXPECT_EQ(records[i]["status"], "ok");
  }
}

// "1,2,...,n".
std::string CommaSeparatedCounts(int n) {
  std::string text;
  for (int i = 1; i <= n; ++i) text += (i > 1 ? "," : "") + std::to_string(i);
  return text;
}

TEST(ShapesCli, BadSweepsAreRefusedWithExit2) {
  const std::string target = " --target 'null:sleep?us=50&dynamic=true'";
  struct Case {
    std::string args;
    std::string says;
  } cases[] = {
      {" --dim batch=", "bad --dim 'batch=': no values"},
      {" --dim batch=0", "'0' is not a positive integer"},
      {" --dim batch=1,,2", "'' is not a positive integer"},
      {" --dim batch=2,2", "2 is listed twice"},
      {" --dim batch=1 --dim batch=2", "--dim batch is given twice"},
      {" --dim =1", "expected NAME=V1,V2"},
      {"", "--dim is required"},
      {" --dim a=" + CommaSeparatedCounts(101) + " --dim b=" + CommaSeparatedCounts(100),
       "the sweep (every --dim combination on 1 targets) expands to 10100 cases, more than the limit of 10000"},
  };
  for (const Case& c : cases) {
    auto r = RunCommand(Executable() + " shapes none" + target + c.args + kQuickShapes + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
  }
}

TEST(ShapesCli, ADimNoTargetHasIsABadArgument) {
  // The null model's batch is fixed without dynamic=true: no target has a dimension 'batch'.
  auto r = RunCommand(Executable() + " shapes none --target null:sleep?us=50,null:spin?us=50 --dim batch=1,2" +
                      kQuickShapes + " --format json 2>&1 >/dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("edgebench shapes: no target has the dimensions swept: --dim batch=1 named no symbolic "
                          "dimension"),
            std::string::npos)
      << r.output;
}

TEST(ShapesCli, TheShapeFaultsNeedADynamicBatch) {
  auto r = RunCommand(Executable() + " run none --target 'null:sleep?abort_batch=4' --min-duration 0 " +
                      "--min-queries 5 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  EXPECT_NE(records[0]["failure"]["error"].get<std::string>().find("add dynamic=true"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace edgebench
