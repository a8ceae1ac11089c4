#include "runner/worker_process.h"

#include <gtest/gtest.h>
#include <signal.h>

#include "../null_case.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using testing::NullCase;

class WorkerTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterBuiltBackends(registry_, testing::BackendPluginDir()); }
  Registry registry_;
};

TEST_F(WorkerTest, MeasuresInAChildProcess) {
  Record r = RunCaseInWorker(testing::Executable(), NullCase("null:spin?us=100"), registry_);
  EXPECT_EQ(r.status, CaseStatus::kOk) << r.error;
  EXPECT_EQ(r.measured_ns.size(), 20u);
  EXPECT_EQ(r.warmup_ns.size(), 2u);
  EXPECT_EQ(r.effective_target, "null:spin?us=100");
  EXPECT_FALSE(r.environment.cpu_model.empty());
}

TEST_F(WorkerTest, TheWorkerIsKilledAtTheSettledTimeoutNotOneRederivedFromTheRequest) {
  // The requested settings alone would allow 2 x 2 s + 120 s; the case as planned says 500 ms.
  CaseSpec spec = NullCase("null:sleep?us=30000000");
  spec.effective = spec.settings;
  spec.effective->case_timeout_ms = 500;
  Record r = RunCaseInWorker(testing::Executable(), spec, registry_);
  EXPECT_EQ(r.status, CaseStatus::kTimeout) << r.error;
  EXPECT_NE(r.error.find("no result within 500 ms"), std::string::npos) << r.error;
}

TEST_F(WorkerTest, CrashBecomesARecordWithSignalAndStage) {
  Record r = RunCaseInWorker(testing::Executable(), NullCase("null:spin?us=10&crash_at=5"), registry_);
  EXPECT_EQ(r.status, CaseStatus::kCrashed);
  EXPECT_EQ(r.signal, SIGABRT);
  EXPECT_EQ(r.failed_stage, "run");
  EXPECT_NE(r.error.find("signal"), std::string::npos);
  EXPECT_FALSE(r.valid);
}

TEST_F(WorkerTest, CrashAfterTheResultKeepsTheResultWithANote) {
  Record r = RunCaseInWorker(testing::Executable(), NullCase("null:spin?us=10&crash_on_release=on"), registry_);
  EXPECT_EQ(r.status, CaseStatus::kOk) << r.error;
  EXPECT_EQ(r.measured_ns.size(), 20u);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("while releasing the runtime"), std::string::npos) << r.notes.back();
  EXPECT_NE(r.notes.back().find("signal 6"), std::string::npos) << r.notes.back();
}

TEST_F(WorkerTest, HangIsKilledAtTheTimeout) {
  CaseSpec spec = NullCase("null:sleep?us=30000000");
  spec.settings.case_timeout_ms = 500;
  Record r = RunCaseInWorker(testing::Executable(), spec, registry_);
  EXPECT_EQ(r.status, CaseStatus::kTimeout);
  EXPECT_NE(r.error.find("500 ms"), std::string::npos) << r.error;
}

TEST_F(WorkerTest, RuntimeErrorIsAFailedRecord) {
  Record r = RunCaseInWorker(testing::Executable(), NullCase("null:spin?us=10&fail_at=4"), registry_);
  EXPECT_EQ(r.status, CaseStatus::kFailed);
  EXPECT_EQ(r.failed_stage, "run");
  EXPECT_NE(r.error.find("query 3"), std::string::npos) << r.error;
}

TEST_F(WorkerTest, UnknownBackendIsUnavailable) {
  Record r = RunCaseInWorker(testing::Executable(), NullCase("tpu:npu"), registry_);
  EXPECT_EQ(r.status, CaseStatus::kUnavailable);
  EXPECT_NE(r.error.find("unknown backend 'tpu'"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace edgebench
