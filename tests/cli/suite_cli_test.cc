// `edgebench suite` as a user drives it: a plan from a file, killed mid-way with SIGKILL, then
// resumed: exactly one record per case and no torn line in the store.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

class SuiteCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("edgebench_suite_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "model.bin") << "the null backend does not read its model";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string WriteSuite(const std::string& text) {
    const auto path = dir_ / "suite.yaml";
    std::ofstream(path) << text;
    return path.string();
  }
  std::string Store() const { return (dir_ / "out" / "results.jsonl").string(); }
  size_t Lines() const {
    std::ifstream in(Store());
    size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }

  std::filesystem::path dir_;
};

// Four cases of about 0.6 s each.
constexpr const char* kSlowSuite = R"(name: kill-and-resume
out: out
settings: {warmup: 1, min_queries: 3, min_duration_ms: 600, max_duration_ms: 5000}
models: [model.bin]
targets: ["null:sleep?us=2000", "null:spin?us=1000"]
params: {fail_at: [0, 100000]}
)";

TEST_F(SuiteCli, KilledMidCaseThenResumedEndsWithOneRecordPerCase) {
  const std::string suite = WriteSuite(kSlowSuite);
  auto dry = RunCommand(Executable() + " suite " + suite + " --dry-run 2>/dev/null");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  std::vector<std::string> keys;
  std::istringstream listing(dry.output);
  for (std::string line; std::getline(listing, line);) keys.push_back(line.substr(0, 16));
  ASSERT_EQ(keys.size(), 4u) << dry.output;

  const pid_t pid = testing::SpawnQuietly({"suite", suite, "--format", "jsonl"});
  ASSERT_GE(pid, 0);
  // Kill it once the first record is stored, while the second case runs.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (Lines() < 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const size_t stored_before = Lines();
  ASSERT_GE(stored_before, 1u);
  ASSERT_LT(stored_before, 4u) << "the suite finished before it could be killed";
  // A kill in the middle of a write leaves a torn line; make one.
  std::ofstream(Store(), std::ios::app) << R"({"schema":"edgebench.record/2","id":"torn)";

  auto resumed = RunCommand(Executable() + " suite " + suite + " --resume --format jsonl 2>&1");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("already in"), std::string::npos) << resumed.output;

  auto contents = ReadStore(Store());
  ASSERT_TRUE(contents.ok()) << contents.error();
  EXPECT_TRUE(contents.value().warnings.empty()) << contents.value().warnings.front();  // the torn line was cut
  std::map<std::string, int> per_key;
  for (const Record& r : contents.value().records) ++per_key[r.case_key];
  ASSERT_EQ(per_key.size(), 4u);
  for (const std::string& key : keys) EXPECT_EQ(per_key[key], 1) << key;
  EXPECT_EQ(Lines(), 4u);

  // Resumed again: nothing left to run, nothing added.
  auto again = RunCommand(Executable() + " suite " + suite + " --resume --format jsonl 2>&1");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(Lines(), 4u);
}

// Issue 52: a suite run again without --resume would add a second record of every case it
// already holds; it is refused, saying how many and which flag does what. --again runs them all.
TEST_F(SuiteCli, RunAgainWithoutResumeIsRefusedUnlessAgainIsGiven) {
  const std::string suite = WriteSuite(R"(name: twice
out: out
settings: {warmup: 1, min_queries: 3, min_duration_ms: 0, max_duration_ms: 1000}
models: [model.bin]
targets: ["null:spin?us=100"]
)");
  auto first = RunCommand(Executable() + " suite " + suite + " --format jsonl 2>&1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(Lines(), 1u);
  auto twice = RunCommand(Executable() + " suite " + suite + " --format jsonl 2>&1");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("already holds 1 of the 1 cases of this plan; --resume runs the other 0, --again "
                              "measures all 1 again"),
            std::string::npos)
      << twice.output;
  EXPECT_EQ(Lines(), 1u);
  auto again = RunCommand(Executable() + " suite " + suite + " --again --format jsonl 2>&1");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(Lines(), 2u);
}

// Issue 52: Ctrl-C (SIGINT) mid-suite says where the records are and the command that runs the
// rest, which then does.
TEST_F(SuiteCli, InterruptedItPrintsTheCommandThatResumes) {
  const std::string suite = WriteSuite(kSlowSuite);
  const std::string err = (dir_ / "stderr.txt").string();
  const std::string script = "cd " + dir_.string() + " && (" + Executable() + " suite " + suite +
                             " --format jsonl >/dev/null 2>" + err +
                             " & pid=$!; i=0; while [ ! -s out/results.jsonl ] && [ $i -lt 1200 ]; do sleep 0.05; "
                             "i=$((i+1)); done; kill -INT $pid; wait $pid; echo exit=$?)";
  auto r = RunCommand("sh -c '" + script + "' 2>&1");
  EXPECT_NE(r.output.find("exit=130"), std::string::npos) << r.output;
  std::ifstream in(err);
  const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(said.find("edgebench suite: interrupted by signal 2"), std::string::npos) << said;
  EXPECT_NE(said.find("every record so far is in " + Store() + "; to run the other "), std::string::npos) << said;
  const std::string resume = "edgebench suite " + suite + " --format jsonl --resume";
  ASSERT_NE(said.find(resume), std::string::npos) << said;
  auto resumed = RunCommand("cd " + dir_.string() + " && " + Executable() + resume.substr(9) + " 2>&1");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(Lines(), 4u);
}

TEST_F(SuiteCli, RetryFailedRunsAgainOnlyTheCasesWhoseWorkerCrashedAndKeepsEveryAttempt) {
  const std::string suite = WriteSuite(R"(name: retry
out: out
settings: {warmup: 1, min_queries: 5, min_duration_ms: 0}
models: [model.bin]
targets: ["null:sleep?us=100", "null:sleep?us=100&crash_at=3", "null:sleep?us=100&fail_at=3"]
)");
  auto first = RunCommand(Executable() + " suite " + suite + " --format jsonl 2>&1");
  EXPECT_EQ(first.exit_code, 1) << first.output;
  ASSERT_EQ(Lines(), 3u) << first.output;
  auto resumed = RunCommand(Executable() + " suite " + suite + " --resume 2>&1");
  EXPECT_NE(resumed.output.find("3 already in"), std::string::npos) << resumed.output;
  EXPECT_EQ(Lines(), 3u) << "a plain --resume runs nothing that has a record";
  // Its table is the whole plan's: the three stored cases, none of them run again.
  for (const char* target : {"null:sleep?us=100 ", "null:sleep?crash_at=3&us=100", "null:sleep?fail_at=3&us=100"}) {
    EXPECT_NE(resumed.output.find(target), std::string::npos) << target << "\n" << resumed.output;
  }

  auto retried = RunCommand(Executable() + " suite " + suite + " --resume --retry-failed --format jsonl 2>&1");
  EXPECT_NE(retried.output.find("2 already in"), std::string::npos) << retried.output;
  auto contents = ReadStore(Store());
  ASSERT_TRUE(contents.ok()) << contents.error();
  std::map<std::string, std::vector<CaseStatus>> attempts;
  for (const Record& r : contents.value().records) attempts[r.requested_target].push_back(r.status);
  EXPECT_EQ(attempts["null:sleep?us=100"], std::vector<CaseStatus>{CaseStatus::kOk});
  EXPECT_EQ(attempts["null:sleep?fail_at=3&us=100"], std::vector<CaseStatus>{CaseStatus::kFailed})
      << "a runtime's refusal is its answer, not retried";
  EXPECT_EQ(attempts["null:sleep?crash_at=3&us=100"],
            (std::vector<CaseStatus>{CaseStatus::kCrashed, CaseStatus::kCrashed}))
      << "the crashed case runs again and both attempts stay in the store";

  auto without_resume = RunCommand(Executable() + " suite " + suite + " --retry-failed 2>&1");
  EXPECT_NE(without_resume.exit_code, 0);
  EXPECT_NE(without_resume.output.find("--resume"), std::string::npos) << without_resume.output;
}

TEST_F(SuiteCli, TheRepositorysReadmeSuitePlansTheDemoOnEveryOrtTarget) {
  std::filesystem::create_directories(dir_ / "models");
  std::filesystem::copy_file(dir_ / "model.bin", dir_ / "models" / "vit_tiny16.onnx");
  auto r = RunCommand("EDGEBENCH_CACHE=" + dir_.string() + " " + Executable() + " suite " +
                      std::string(EDGEBENCH_SOURCE_DIR) + "/suites/readme.yaml --dry-run 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* target : {"ort:cpu", "ort:xnnpack", "ort:dnnl"}) {
    EXPECT_NE(r.output.find("vit_tiny16  " + std::string(target) + "  single-stream"), std::string::npos)
        << r.output;
  }
}

TEST_F(SuiteCli, MalformedSuiteIsAnErrorNamingTheLineBeforeAnythingRuns) {
  const std::string suite = WriteSuite("models: [model.bin]\ntargets: [\"null:spin\"]\nscenarios: [single-strem]\n");
  auto r = RunCommand(Executable() + " suite " + suite + " 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("suite.yaml:3:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unknown scenario 'single-strem'; scenarios: single-stream, multi-stream:N, server:QPS"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out"));
}

TEST_F(SuiteCli, ASuiteRefusesWhatRunRefusesWithTheSameReason) {
  const struct {
    const char* suite_settings;
    const char* run_flags;
    const char* reason;
  } kCases[] = {
      {"{batch: 4}", "--batch 4", "applies to the offline scenario, and "},
      {"{p99_bound_ms: 5, min_queries: 20}", "--scenario server:100 --p99-bound-ms 5 --min-queries 20",
       "compares a p99, which needs at least 100 queries"},
      {"{find_peak: true, min_queries: 100}", "--scenario server:100 --find-peak --min-queries 100",
       "searches the highest rate whose p99 stays under a bound"},
  };
  for (const auto& c : kCases) {
    const std::string scenarios = std::string(c.run_flags).find("server") != std::string::npos ? "[server:100]"
                                                                                               : "[single-stream]";
    const std::string suite = WriteSuite("models: [model.bin]\ntargets: [\"null:spin\"]\nscenarios: " + scenarios +
                                         "\nsettings: " + c.suite_settings + "\n");
    auto from_suite = RunCommand(Executable() + " suite " + suite + " 2>&1");
    EXPECT_EQ(from_suite.exit_code, 2) << from_suite.output;
    EXPECT_NE(from_suite.output.find("suite.yaml:4: settings: "), std::string::npos) << from_suite.output;
    EXPECT_NE(from_suite.output.find(c.reason), std::string::npos) << from_suite.output;
    auto from_run = RunCommand(Executable() + " run " + (dir_ / "model.bin").string() + " -t null:spin " +
                               c.run_flags + " 2>&1");
    EXPECT_EQ(from_run.exit_code, 2) << from_run.output;
    EXPECT_NE(from_run.output.find(c.reason), std::string::npos) << from_run.output;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "out"));
  }
}

TEST_F(SuiteCli, ProfileAndInputPoolWrittenInASuiteReachTheCase) {
  const std::string settings = "settings: {warmup: 1, min_queries: 5, min_duration_ms: 0, max_duration_ms: 3000";
  const std::string suite =
      WriteSuite("out: out\nmodels: [model.bin]\ntargets: [\"null:spin?us=100\"]\n" + settings +
                 ", profile: true, input_pool: 3}\n");
  auto r = RunCommand(Executable() + " suite " + suite + " --no-monitor 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto store = ReadStore(Store());
  ASSERT_TRUE(store.ok()) << store.error();
  ASSERT_EQ(store.value().records.size(), 1u);
  const Record profiled = store.value().records[0];  // a copy: the store is read again below
  // Profiled: a profile, or the backend's reason for having none.
  EXPECT_TRUE(profiled.operator_profile.has_value() || !profiled.operator_profile_unavailable.empty());
  // The same case unprofiled is a case of its own.
  const std::string plain = WriteSuite("out: out\nmodels: [model.bin]\ntargets: [\"null:spin?us=100\"]\n" +
                                       settings + ", input_pool: 3}\n");
  r = RunCommand(Executable() + " suite " + plain + " --no-monitor --resume 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  store = ReadStore(Store());
  ASSERT_TRUE(store.ok()) << store.error();
  ASSERT_EQ(store.value().records.size(), 2u);
  EXPECT_NE(store.value().records[1].case_key, profiled.case_key);
  EXPECT_FALSE(store.value().records[1].operator_profile.has_value());
  EXPECT_TRUE(store.value().records[1].operator_profile_unavailable.empty());
}

}  // namespace
}  // namespace edgebench
