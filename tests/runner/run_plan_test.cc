// RunPlan called directly: every kind of case (measured in process, or run by a CaseMode) goes
// through the same loop, which skips what the store holds, records skipped cases, attaches the
// cooldown, compares a load case with its single-stream case, and stops on an interrupt.
#include "runner/run_plan.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "../test_util.h"
#include "backends/target.h"
#include "runner/case_mode.h"
#include "runner/interrupt.h"
#include "worker/run_case.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// A mode that answers an ok record at once, and can raise a signal while "running" its n-th case.
class FakeMode : public CaseMode {
 public:
  explicit FakeMode(const Registry& registry, int* runs, int raise_on_run = 0, int stop_on_run = 0)
      : registry_(registry), runs_(runs), raise_on_run_(raise_on_run), stop_on_run_(stop_on_run) {}
  Record Run(const CaseSpec& spec, const WorkerMessageCallback& on_message) override {
    ++*runs_;
    if (on_message) on_message({{"stage", "fake"}});
    Record r = MakeBaseRecord(spec, registry_);
    r.notes.push_back("fake run " + std::to_string(*runs_));
    if (raise_on_run_ == *runs_) {
      std::raise(SIGINT);
      r.status = CaseStatus::kCrashed;  // the worker killed by the interrupt
    }
    if (stop_on_run_ == *runs_) {
      r.status = CaseStatus::kFailed;
      stop_ = "the reference failed";
    }
    FinishRecord(r);
    return r;
  }
  std::string StopReason() const override { return stop_; }

 private:
  const Registry& registry_;
  int* runs_;
  int raise_on_run_;
  int stop_on_run_;
  std::string stop_;
};

class RunPlanTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterBuiltBackends(registry_, testing::BackendPluginDir()); }

  // A null-backend case as the planner makes it.
  PlannedCase NullCase(const std::string& scenario) {
    PlanRequest request;
    auto model = ParseModelArgument("null");
    EXPECT_TRUE(model.ok()) << model.error();
    request.models.push_back({model.take(), {}, {}});
    request.targets.push_back(ParseTarget("null:sleep?us=200").take());
    request.scenarios = {scenario};
    request.settings.min_queries = 20;
    request.settings.min_duration_ms = 0;
    request.settings.max_duration_ms = 2000;
    request.settings.warmup_queries = 1;
    request.monitor.enabled = false;
    auto plan = PlanCases(request, registry_);
    EXPECT_TRUE(plan.ok()) << plan.error();
    return plan.value().front();
  }

  PlannedCase ModeCase(const std::string& key, std::shared_ptr<CaseMode> mode) {
    PlannedCase c = NullCase("single-stream");
    c.spec.scenario = "accuracy";
    c.spec.case_key = key;
    c.mode = std::move(mode);
    return c;
  }

  RunPlanOptions Options() {
    RunPlanOptions options;
    options.in_process = true;
    options.progress = false;
    return options;
  }

  Registry registry_;
};

TEST_F(RunPlanTest, ModesResumeAndSkippedCasesGoThroughOneLoop) {
  int runs = 0;
  auto mode = std::make_shared<FakeMode>(registry_, &runs);
  std::vector<PlannedCase> plan = {ModeCase("k1", mode), ModeCase("k2", mode), ModeCase("k3", mode)};
  plan[2].skip_reason = "no artifact this backend reads";
  RunPlanOptions options = Options();
  options.done_keys = {"k1"};
  std::vector<Record> sunk;
  const RunPlanTotals totals = RunPlan(plan, registry_, options, [&](const Record& r) {
    sunk.push_back(r);
    return r.case_key != "k3";  // the skipped case's record cannot be stored
  });
  EXPECT_EQ(runs, 1) << "k1 is in the store, k3 is skipped: only k2 runs";
  ASSERT_EQ(sunk.size(), 2u);
  EXPECT_EQ(sunk[0].case_key, "k2");
  EXPECT_EQ(sunk[0].notes.front(), "fake run 1");
  EXPECT_EQ(sunk[1].case_key, "k3");
  EXPECT_EQ(sunk[1].status, CaseStatus::kSkipped);
  EXPECT_EQ(sunk[1].error, "no artifact this backend reads");
  EXPECT_EQ(totals.cases, 3);
  EXPECT_EQ(totals.resumed, 1);
  EXPECT_EQ(totals.measured, 1);
  EXPECT_EQ(totals.skipped, 1);
  EXPECT_EQ(totals.store_errors, 1);
  EXPECT_EQ(totals.interrupted_by, 0);
}

TEST_F(RunPlanTest, TheCooldownIsRecordedBeforeEveryCaseButTheFirst) {
  int runs = 0;
  auto mode = std::make_shared<FakeMode>(registry_, &runs);
  RunPlanOptions options = Options();
  options.cooldown = ParseCooldown("1ms").take();
  options.sysfs_root = testing::TempFilePath("run_plan_", "no_sysfs");  // no sensor: the fixed wait
  std::vector<Record> sunk;
  RunPlan({ModeCase("a", mode), ModeCase("b", mode)}, registry_, options, [&](const Record& r) {
    sunk.push_back(r);
    return true;
  });
  ASSERT_EQ(sunk.size(), 2u);
  for (const Record& r : sunk) {
    ASSERT_TRUE(r.monitor && r.monitor->cooldown) << r.case_key;
  }
  EXPECT_EQ(sunk[0].monitor->cooldown->detail, "the first case: nothing ran before it");
  EXPECT_EQ(sunk[1].monitor->cooldown->mode, "fixed");
}

TEST_F(RunPlanTest, ALoadCaseIsComparedWithTheSameTargetsSingleStreamCase) {
  std::vector<Record> sunk;
  const RunPlanTotals totals =
      RunPlan({NullCase("single-stream"), NullCase("multi-stream:2")}, registry_, Options(), [&](const Record& r) {
        sunk.push_back(r);
        return true;
      });
  ASSERT_EQ(sunk.size(), 2u);
  ASSERT_EQ(sunk[0].status, CaseStatus::kOk) << sunk[0].error;
  ASSERT_EQ(sunk[1].status, CaseStatus::kOk) << sunk[1].error;
  EXPECT_EQ(totals.measured, 2);
  EXPECT_FALSE(sunk[0].load_inflation.has_value());
  ASSERT_TRUE(sunk[1].load_inflation.has_value());
  EXPECT_EQ(sunk[1].load_inflation->baseline_record_id, sunk[0].id);
}

TEST_F(RunPlanTest, AModeThatCannotGoOnStopsThePlanAfterStoringItsRecord) {
  int runs = 0;
  auto mode = std::make_shared<FakeMode>(registry_, &runs, 0, /*stop_on_run=*/1);
  std::vector<Record> sunk;
  const RunPlanTotals totals =
      RunPlan({ModeCase("ref", mode), ModeCase("b", mode), ModeCase("c", mode)}, registry_, Options(),
              [&](const Record& r) {
                sunk.push_back(r);
                return true;
              });
  EXPECT_EQ(runs, 1);
  ASSERT_EQ(sunk.size(), 1u) << "the stopping case's record only: --resume runs the rest";
  EXPECT_EQ(sunk[0].case_key, "ref");
  EXPECT_EQ(totals.stopped, "the reference failed");
  EXPECT_EQ(totals.not_measured, 1);
}

// The interrupt is process-wide and stays raised, so this runs in a child process of its own.
TEST_F(RunPlanTest, AnInterruptStopsThePlanAndTheInterruptedCaseHasNoRecord) {
  EXPECT_EXIT(
      {
        InstallInterruptHandlers();
        int runs = 0;
        auto mode = std::make_shared<FakeMode>(registry_, &runs, /*raise_on_run=*/2);
        int sunk = 0;
        const RunPlanTotals totals =
            RunPlan({ModeCase("a", mode), ModeCase("b", mode), ModeCase("c", mode)}, registry_, Options(),
                    [&](const Record&) { return ++sunk > 0; });
        const bool right = runs == 2 && sunk == 1 && totals.interrupted_by == SIGINT;
        std::_Exit(right ? 0 : 10 + runs * 3 + sunk);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace edgebench
