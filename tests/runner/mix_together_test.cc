// Workloads sharing one process (worker/together_cases.h, runner/mix_together.h): set-up one
// case at a time and scenarios side by side, on threads named for their case; in a shared worker,
// records as each case ends, and a crash that takes every unfinished case down, named.
#include "runner/mix_together.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "core/clock.h"
#include "worker/together_cases.h"
#include "../null_case.h"
#include "../test_util.h"

namespace edgebench {
namespace {

// A null case without the device monitor: these tests look at order, not samples.
CaseSpec SharedNullCase(const std::string& target, int64_t min_duration_ms) {
  CaseSpec spec = testing::NullCase(target, min_duration_ms);
  spec.monitor.enabled = false;
  return spec;
}

class TogetherTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterBuiltBackends(registry_, testing::BackendPluginDir()); }
  Registry registry_;
};

TEST(TogetherThreads, ANameSaysItsCase) {
  EXPECT_EQ(TogetherThreadName(3), "eb-together-3");
  EXPECT_LE(TogetherThreadName(15).size(), 15u);  // the kernel's limit
  EXPECT_EQ(TogetherCaseOfThread("eb-together-3"), 3);
  EXPECT_EQ(TogetherCaseOfThread("eb-together-15"), 15);
  EXPECT_EQ(TogetherCaseOfThread("eb-together-"), -1);
  EXPECT_EQ(TogetherCaseOfThread("eb-together-1x"), -1);
  EXPECT_EQ(TogetherCaseOfThread("ort-pool-3"), -1);
}

TEST_F(TogetherTest, SetUpRunsOneCaseAtATimeAndTheScenariosSideBySide) {
  // Scenarios of a second each: far longer than the three set-ups, on a loaded machine too.
  const std::vector<CaseSpec> specs = {SharedNullCase("null:spin?us=200", 1000), SharedNullCase("null:spin?us=200", 1000),
                                       SharedNullCase("null:sleep?us=500", 1000)};
  std::mutex mutex;
  std::map<size_t, std::pair<int64_t, int64_t>> set_up;  // case: first stage, its "run"
  std::map<size_t, int64_t> ended;
  std::map<size_t, std::string> thread_names;
  std::vector<Record> records(specs.size());
  TogetherCallbacks callbacks;
  callbacks.stage = [&](size_t i, const std::string& stage) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!set_up.count(i)) {
        set_up[i] = {NowNs(), 0};
        char name[32] = {};
        ::pthread_getname_np(::pthread_self(), name, sizeof name);
        thread_names[i] = name;
      }
      if (stage == "run") set_up[i].second = NowNs();
    }
    // A slow load: set-ups that were not one at a time would overlap here.
    if (stage == "load") std::this_thread::sleep_for(std::chrono::milliseconds(30));
  };
  callbacks.done = [&](size_t i, const Record& record) {
    std::lock_guard<std::mutex> lock(mutex);
    ended[i] = NowNs();
    records[i] = record;
  };
  RunCasesTogether(specs, registry_, callbacks);
  ASSERT_EQ(set_up.size(), 3u);
  for (size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(records[i].status, CaseStatus::kOk) << records[i].error;
    EXPECT_EQ(thread_names[i], TogetherThreadName(i));
    ASSERT_GT(set_up[i].second, 0) << "case " << i << " never reached its scenario";
    for (size_t j = 0; j < specs.size(); ++j) {
      if (i == j) continue;
      // One set-up ends before another begins.
      const bool apart = set_up[i].second <= set_up[j].first || set_up[j].second <= set_up[i].first;
      EXPECT_TRUE(apart) << "cases " << i << " and " << j << " set up at once";
      // Every scenario started before any ended: they ran side by side.
      EXPECT_LT(set_up[j].second, ended[i]) << "case " << j << " started after case " << i << " ended";
    }
  }
}

TEST_F(TogetherTest, ASharedWorkerAnswersEachCaseAsItEnds) {
  const std::string log = testing::TempFilePath("together", "stderr.txt");
  const auto outcome = RunWorkloadsTogether(
      testing::Executable(), {{"quick", SharedNullCase("null:spin?us=100", 0)}, {"slow", SharedNullCase("null:sleep?us=1000", 300)}},
      registry_, log);
  EXPECT_EQ(outcome.exit_code, 0);
  ASSERT_EQ(outcome.records.size(), 2u);
  for (const Record& r : outcome.records) EXPECT_EQ(r.status, CaseStatus::kOk) << r.error;
  EXPECT_EQ(outcome.records[0].effective_target, "null:spin?us=100");
  EXPECT_EQ(outcome.records[1].effective_target, "null:sleep?us=1000");
  EXPECT_GE(outcome.records[1].measured_ns.size(), 20u);
  EXPECT_TRUE(outcome.crashed_workload.empty());
}

TEST_F(TogetherTest, ACrashTakesTheUnfinishedCasesDownAndNamesWhoseThreadDied) {
  const std::string log = testing::TempFilePath("together", "stderr.txt");
  // "done" ends in milliseconds, "cam" would run 3 s, "crasher" aborts on its 1000th run (~1 s):
  // whichever order the three set up in, "done" has ended long before.
  const auto outcome = RunWorkloadsTogether(testing::Executable(),
                                            {{"done", SharedNullCase("null:spin?us=100", 0)},
                                             {"cam", SharedNullCase("null:sleep?us=1000", 3000)},
                                             {"crasher", SharedNullCase("null:sleep?us=1000&crash_at=1000", 3000)}},
                                            registry_, log);
  EXPECT_EQ(outcome.exit_code, 128 + SIGABRT);
  EXPECT_EQ(outcome.crashed_workload, "crasher");
  ASSERT_EQ(outcome.records.size(), 3u);
  EXPECT_EQ(outcome.records[0].status, CaseStatus::kOk) << outcome.records[0].error;  // ended before the crash
  EXPECT_EQ(outcome.records[1].status, CaseStatus::kCrashed);
  EXPECT_NE(outcome.records[1].error.find("when the thread of workload 'crasher' crashed"), std::string::npos)
      << outcome.records[1].error;
  EXPECT_EQ(outcome.records[1].failed_stage, "run");
  EXPECT_EQ(outcome.records[2].status, CaseStatus::kCrashed);
  EXPECT_NE(outcome.records[2].error.find("this workload's thread"), std::string::npos) << outcome.records[2].error;
  EXPECT_EQ(outcome.records[2].signal, SIGABRT);
}

}  // namespace
}  // namespace edgebench
