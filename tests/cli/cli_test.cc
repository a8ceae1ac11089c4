// The CLI as a user drives it: exit codes, messages, and one row per target.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

TEST(Cli, VersionAndHelp) {
  auto version = RunCommand(Executable() + " --version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.output.find("edgebench "), std::string::npos);
  for (const char* sub : {"devices", "run"}) {
    auto help = RunCommand(Executable() + " " + sub + " --help");
    EXPECT_EQ(help.exit_code, 0) << sub;
    EXPECT_NE(help.output.find("[OPTIONS]"), std::string::npos) << sub;
  }
}

TEST(Cli, BadFlagIsAClearErrorWithExitTwo) {
  auto r = RunCommand(Executable() + " run model.onnx --no-such-flag 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("edgebench run: unknown option '--no-such-flag' (edgebench run --help lists them)"),
            std::string::npos)
      << r.output;
  auto bad_target = RunCommand(Executable() + " run x.onnx --target 'ort:' 2>&1");
  EXPECT_EQ(bad_target.exit_code, 2);
  EXPECT_NE(bad_target.output.find("bad target"), std::string::npos) << bad_target.output;
  auto missing = RunCommand(Executable() + " run /nonexistent.onnx --target ort:cpu 2>&1");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("model file '/nonexistent.onnx' does not exist"), std::string::npos) << missing.output;
  auto settings = RunCommand(Executable() +
                             " run x.onnx --target null:spin --min-duration 10 --max-duration 5 2>&1");
  EXPECT_EQ(settings.exit_code, 2);
  EXPECT_NE(settings.output.find("--min-duration (10 ms) is longer than --max-duration (5 ms)"), std::string::npos)
      << settings.output;
}

// Issue 52: a misspelt flag gets the nearest flag of that command, after the command or before it.
TEST(Cli, AMisspeltFlagGetsTheNearestOneOfItsCommand) {
  const std::pair<const char*, const char*> typos[] = {
      {" run x.onnx --taget ort:cpu", "edgebench run: unknown option '--taget'; did you mean --target?"},
      {" devices --limit", "edgebench devices: unknown option '--limit'; did you mean --limits?"},
      {" llm x.gguf --promt=8", "edgebench llm: unknown option '--promt'; did you mean --prompt?"},
      {" --verbsoe devices", "edgebench devices: unknown option '--verbsoe'; did you mean --verbose?"},
      {" run x.onnx --sample-h 3", "did you mean --sample-hz?"},
  };
  for (const auto& [args, expected] : typos) {
    auto r = RunCommand(Executable() + args + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.output.find(expected), std::string::npos) << args << ": " << r.output;
  }
  // Nothing near: no guess.
  auto far = RunCommand(Executable() + " run x.onnx --zzzzzzzz 2>&1");
  EXPECT_EQ(far.output.find("did you mean"), std::string::npos) << far.output;
  // A GGUF given to `run` points to `llm`.
  auto gguf = RunCommand(Executable() + " run " + testing::TestModel("llama-tiny.gguf") + " -t ort:cpu 2>&1");
  EXPECT_NE(gguf.output.find("a .gguf is a language model: `edgebench llm "), std::string::npos) << gguf.output;
}

// Issue 50, class 5: nan reads as a number, compares false with everything, and was accepted
// and then dropped (--peak-gbs) or decided every verdict by the comparison's direction. Each is
// refused with exit 2 before anything runs.
TEST(Cli, NanIsRefusedByEveryNumberFlag) {
  const std::string model = TestModel("fashion/fashion_softmax.json");
  const struct {
    std::string args;
    std::string says;
  } cases[] = {
      {"devices --limits --peak-gbs nan", "'nan' is not a finite number above 0"},
      {"devices --limits --peak-gflops inf", "'inf' is not a finite number above 0"},
      {"recommend /nonexistent --tie nan", "--tie nan is not a percentage"},
      {"agree " + model + " -t ort:cpu,ort:xnnpack --min-sqnr nan", "--min-sqnr must be a finite number"},
      {"agree " + model + " -t ort:cpu,ort:xnnpack --max-abs nan", "--max-abs must be a finite number"},
      {"agree " + model + " -t ort:cpu,ort:xnnpack --min-cosine nan", "--min-cosine must be from -1 to 1"},
      {"drift " + model + " --reference fp32 --candidate coarse --min-sqnr nan", "--min-sqnr must be a finite"},
      {"tune x.onnx --space target=ort:cpu --tie nan", "--tie must be a percentage"},
      {"tune x.onnx --space target=ort:cpu --precision nan", "--precision must be a percentage"},
  };
  for (const auto& c : cases) {
    auto r = RunCommand(Executable() + " " + c.args + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
  }
}

TEST(Cli, DevicesListsEveryBackend) {
  auto r = RunCommand(Executable() + " devices");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("null:spin"), std::string::npos);
  EXPECT_NE(r.output.find("ort:"), std::string::npos) << r.output;
}

TEST(Cli, OneRowPerTargetAndAFailureDoesNotStopTheOthers) {
  const std::string dir = "/tmp/edgebench_cli_" + std::to_string(::getpid());
  auto r = RunCommand(Executable() + " run none --format jsonl --min-queries 20 --min-duration 0" +
                      " --warmup 2 --out " + dir +
                      " --target 'null:spin?us=50,null:spin?us=10&crash_at=3,null:sleep?us=100'");
  EXPECT_EQ(r.exit_code, 1);  // one target crashed
  std::istringstream lines(r.output);
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]["status"], "ok");
  EXPECT_EQ(records[1]["status"], "crashed");
  EXPECT_EQ(records[2]["status"], "ok");
  // The store has the same three records, one per line.
  auto stored = RunCommand("wc -l < " + dir + "/results.jsonl");
  EXPECT_EQ(std::stoi(stored.output), 3);
  RunCommand("rm -rf " + dir);
}

// Issue 52: a run keeps its records in results/ where it runs unless told otherwise, says where,
// and says how to move the store when results/ cannot be made.
TEST(Cli, RecordsGoToResultsByDefaultAndNoStoreKeepsNone) {
  const std::string dir = testing::TempFilePath("cli_", "default_store");
  std::filesystem::create_directories(dir);
  const std::string run = "cd " + dir + " && " + Executable() +
                          " run none --min-queries 5 --min-duration 0 --warmup 1 --target null:sleep?us=10";
  auto r = RunCommand(run + " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 record appended to results/results.jsonl"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/results/results.jsonl"));
  std::filesystem::remove_all(dir + "/results");
  r = RunCommand(run + " --no-store 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("appended"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/results"));
  // results is a file here: the store cannot be made, and the error says what to do.
  std::ofstream(dir + "/results") << "not a directory";
  r = RunCommand(run + " 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--out DIR puts it elsewhere, --no-store keeps none"), std::string::npos) << r.output;
  r = RunCommand(run + " --no-store --out elsewhere 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  std::filesystem::remove_all(dir);
}

TEST(Cli, PivotPrintsOneMetricAsTargetsByScenarios) {
  auto r = RunCommand(Executable() + " run none --min-queries 5 --min-duration 0 --warmup 1 --no-store" +
                      " --target null:sleep?us=10,null:spin?us=10 --scenario single-stream,multi-stream:2 --pivot p50 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // Which cases are VALID at five queries varies (an INVALID one is marked '*'): the layout does not.
  EXPECT_NE(r.output.find("p50 (ms) by target and scenario"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nmodel  target            single-stream  multi-stream:2\nnone   null:sleep?us=10 "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\nnone   null:spin?us=10  "), std::string::npos) << r.output;
  r = RunCommand(Executable() + " run none --no-store --target null:sleep --pivot p51 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--pivot: no column is called 'p51'"), std::string::npos) << r.output;
  // Where nothing would apply them, --pivot and --columns are refused, not dropped.
  r = RunCommand(Executable() + " run none --no-store --target null:sleep --pivot p50 --format json 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--pivot shapes the table; --format json prints every column"), std::string::npos) << r.output;
  r = RunCommand(Executable() + " devices --columns p99 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("`edgebench devices` prints no such table"), std::string::npos) << r.output;
}

TEST(Cli, UnknownCommandNamesItAndListsTheCommands) {
  for (const char* args : {" bogus", " -v bogus", " bogus --target ort:cpu"}) {
    auto r = RunCommand(Executable() + args + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << args;
    // The hidden worker command is not offered.
    EXPECT_EQ(r.output,
              "edgebench: unknown command 'bogus'; commands: devices, run, agree, drift, accuracy, llm, suite, shapes, conformance, coverage, report, compare, recommend, export, tune, fleet\n")
        << args;
  }
}

TEST(Cli, VerboseIsAcceptedBeforeAndAfterTheCommand) {
  for (const char* args : {" -v devices", " devices -v", " devices --verbose", " devices -vv",
                           " --verbose devices -v"}) {
    auto r = RunCommand(Executable() + args + " 2>&1");
    EXPECT_EQ(r.exit_code, 0) << args << ": " << r.output;
    EXPECT_NE(r.output.find("null:spin"), std::string::npos) << args << ": " << r.output;
  }
}

// The command line of a short ONNX Runtime case on ort:cpu, or "" when ONNX Runtime is not
// built here (its runtime logs are what -vv must show).
std::string OrtCaseCommand() {
  if (RunCommand(Executable() + " devices").output.find("ort:cpu") == std::string::npos) return "";
  return Executable() + " run " + TestModel("vit_micro.onnx") +
         " --target 'ort:cpu?threads=1' --warmup 1 --min-queries 3 --min-duration 0 --format jsonl";
}

TEST(Cli, NoVerboseShowsNeitherInfoNorDebugLines) {
  const std::string command = OrtCaseCommand();
  if (command.empty()) GTEST_SKIP() << "ONNX Runtime is not built";
  auto r = RunCommand(command + " 2>&1 >/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("edgebench: info:"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("edgebench: debug:"), std::string::npos) << r.output;
}

TEST(Cli, OneVerboseShowsWhatRunsWithoutRuntimeLogs) {
  const std::string command = OrtCaseCommand();
  if (command.empty()) GTEST_SKIP() << "ONNX Runtime is not built";
  for (const std::string& where : {command + " -v", command + " --verbose"}) {
    auto r = RunCommand(where + " 2>&1 >/dev/null");
    EXPECT_EQ(r.exit_code, 0) << where << ": " << r.output;
    EXPECT_NE(r.output.find("edgebench: info: running vit_micro"), std::string::npos)
        << where << ": " << r.output;
    EXPECT_EQ(r.output.find("edgebench: debug:"), std::string::npos) << where << ": " << r.output;
    EXPECT_EQ(r.output.find("onnxruntime:"), std::string::npos) << where << ": " << r.output;
  }
}

TEST(Cli, TwoVerboseAlsoPassRuntimeLogsThroughFromTheWorker) {
  const std::string command = OrtCaseCommand();
  if (command.empty()) GTEST_SKIP() << "ONNX Runtime is not built";
  std::string before = command;
  before.insert(Executable().size(), " -v");  // -v before the command, -v after it
  for (const std::string& where : {command + " -vv", before + " -v"}) {
    auto r = RunCommand(where + " 2>&1 >/dev/null");
    EXPECT_EQ(r.exit_code, 0) << where << ": " << r.output;
    EXPECT_NE(r.output.find("edgebench: info: running vit_micro"), std::string::npos) << where;
    // ONNX Runtime's own verbose lines, logged in the worker process.
    EXPECT_NE(r.output.find("edgebench: debug: onnxruntime:"), std::string::npos)
        << where << ": " << r.output.substr(0, 2000);
  }
}

}  // namespace
}  // namespace edgebench
