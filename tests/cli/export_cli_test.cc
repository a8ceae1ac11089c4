// `edgebench export` as a user runs it: CSV that a spreadsheet opens without running a record's
// text as a formula, table files that stay in the output directory whatever a record's scenario
// says, and a store named twice (or a copy of it) read once.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::MakeRecord;
using testing::RunCommand;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class ExportCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempFilePath("export_cli_", "work");
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Store(const std::string& name, const std::vector<Record>& records) {
    auto store = ResultStore::Open(dir_ + "/" + name);
    ASSERT_TRUE(store.ok()) << store.error();
    for (const Record& r : records) ASSERT_TRUE(store.value().Append(r).ok());
  }
  std::string dir_;
};

TEST_F(ExportCli, CellsASpreadsheetWouldRunAsFormulasAreNeutralised) {
  Record r = MakeRecord({1'000'000, 2'000'000, 3'000'000});
  r.model = "=HYPERLINK(\"http://127.0.0.1/x\",\"click\")";
  r.requested_target = r.effective_target = "@SUM(1+1)";
  r.variant = "+cmd|' /C calc'!A0";
  r.device = "-1+2";
  ASSERT_NO_FATAL_FAILURE(Store("s", {r}));
  auto run = RunCommand(Executable() + " export " + dir_ + "/s -o " + dir_ + "/out -f csv 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string csv = ReadText(dir_ + "/out/single-stream.csv");
  EXPECT_NE(csv.find(",\"'=HYPERLINK(\"\"http://127.0.0.1/x\"\",\"\"click\"\")\","), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"'@SUM(1+1)\","), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"'+cmd|' /C calc'!A0\","), std::string::npos) << csv;
  // No cell starts with a formula character unless it is a number.
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_EQ(line.find(",="), std::string::npos) << line;
    EXPECT_EQ(line.find(",@"), std::string::npos) << line;
    EXPECT_EQ(line.find(",+c"), std::string::npos) << line;
  }
}

TEST_F(ExportCli, ATableFileStaysInTheOutputDirectoryWhateverTheScenarioSays) {
  Record r = MakeRecord({1'000'000, 2'000'000});
  r.scenario = "../../escaped";
  ASSERT_NO_FATAL_FAILURE(Store("s", {r}));
  auto run = RunCommand(Executable() + " export " + dir_ + "/s -o " + dir_ + "/out/deep 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/escaped.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/out/escaped.jsonl"));
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_ + "/out/deep")) {
    EXPECT_EQ(entry.path().filename().string().find(".."), std::string::npos) << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST_F(ExportCli, AStoreNamedTwiceOrCopiedIsReadOnce) {
  Record a = MakeRecord({1'000'000, 2'000'000});
  a.id = "a";
  Record b = MakeRecord({1'000'000, 3'000'000});
  b.id = "b";
  ASSERT_NO_FATAL_FAILURE(Store("s", {a, b}));
  std::filesystem::create_directories(dir_ + "/copy");
  std::filesystem::copy_file(dir_ + "/s/results.jsonl", dir_ + "/copy/results.jsonl");
  auto run = RunCommand(Executable() + " export " + dir_ + "/s " + dir_ + "/s/ " + dir_ + "/copy -o " + dir_ +
                        "/out 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("single-stream.jsonl: 2 row(s)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("2 record(s) already read from an earlier store (same id) left out"), std::string::npos)
      << run.output;
}

}  // namespace
}  // namespace edgebench
