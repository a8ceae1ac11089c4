// `edgebench run MIX.yaml` end to end on null workloads: a camera workload beside one whose
// worker crashes mid-run keeps its records complete and VALID, alone and mixed, each tagged
// with the mix; the command says the mix was not met.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

TEST(MixCli, AWorkloadThatCrashesLeavesTheOthersMeasuredAndValid) {
  const std::string dir = testing::TempFilePath("mix_cli", "dir");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string model = testing::TestModel("drift_mlp_other.onnx");
  std::ofstream(dir + "/mix.yaml") << "name: box\nduration: 1s\nworkloads:\n"
                                      "  - name: cam\n    model: " << model << "\n"
                                      "    target: null:sleep?us=2000\n    scenario: camera:2@50fps\n"
                                      "    objectives: [dropped<=50%]\n"
                                      "  - name: crasher\n    model: " << model << "\n"
                                      "    target: null:sleep?us=1000&crash_at=50\n    scenario: single-stream\n";
  const auto r = RunCommand(Executable() + " run " + dir + "/mix.yaml --out " + dir + "/store 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("interference in mix box"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("NOT met"), std::string::npos) << r.output;
  auto records = ReadRecords(dir + "/store/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 4u) << r.output;  // each workload alone, then both mixed
  int cams = 0, crashes = 0;
  for (const Record& record : records.value()) {
    ASSERT_TRUE(record.mix) << record.id;
    EXPECT_EQ(record.mix->mix, "box");
    EXPECT_EQ(record.mix->run, records.value().front().mix->run);
    // Each process's moments on the mix's clock, in order, and how it ended.
    EXPECT_GT(record.mix->phase_start_ns, 0);
    EXPECT_GE(record.mix->process_start_ns, record.mix->phase_start_ns);
    EXPECT_GT(record.mix->process_end_ns, record.mix->process_start_ns);
    ASSERT_TRUE(record.mix->exit_code);
    if (record.mix->workload == "crasher") {
      EXPECT_NE(*record.mix->exit_code, 0);
    }
    if (record.mix->workload == "cam") {
      ++cams;
      EXPECT_EQ(record.status, CaseStatus::kOk) << r.output;
      // VALID; a sanitizer build's records are INVALID for that alone.
      EXPECT_EQ(record.invalid_reasons, testing::kSanitizerBuild ? std::vector<std::string>{"sanitizer build of edgebench"}
                                                                 : std::vector<std::string>{})
          << r.output;
      ASSERT_TRUE(record.load && record.load->camera);
      EXPECT_EQ(record.load->camera->total.delivered, 100);  // 2 streams x 50 fps x 1 s
      if (record.mix->phase == "mixed") {
        EXPECT_EQ(record.mix->beside, std::vector<std::string>{"crasher"});
        // The machine, read once by the mix over the mixed phase, on the first workload's record,
        // without the mix process's own memory and CPU.
        ASSERT_TRUE(record.mix->machine) << r.output;
        EXPECT_FALSE(record.mix->machine->series.t_ns.empty());
        for (const Channel& c : record.mix->machine->series.channels) {
          EXPECT_NE(c.kind, ChannelKind::kRss) << c.id;
          EXPECT_NE(c.kind, ChannelKind::kProcessCpu) << c.id;
        }
      }
    } else {
      ++crashes;
      EXPECT_EQ(record.status, CaseStatus::kCrashed) << r.output;
    }
  }
  EXPECT_EQ(cams, 2);
  EXPECT_EQ(crashes, 2);
  std::filesystem::remove_all(dir);
}

TEST(MixCli, LoadFlagsAreRefusedBesideAMixFile) {
  const std::string dir = testing::TempFilePath("mix_cli", "flags");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/mix.yaml") << "name: m\nduration: 1s\nworkloads:\n";
  const auto r = RunCommand(Executable() + " run " + dir + "/mix.yaml --scenario offline 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("only --out, --no-store, --format and --no-monitor"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}


TEST(MixCli, ASuiteRunsItsMixesIntoItsStoreAndResumeSkipsThem) {
  const std::string dir = testing::TempFilePath("mix_cli", "suite");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string model = testing::TestModel("drift_mlp_other.onnx");
  std::ofstream(dir + "/mix.yaml") << "name: pair\nduration: 1s\nworkloads:\n"
                                      "  - name: a\n    model: " << model << "\n"
                                      "    target: null:sleep?us=1000\n    scenario: single-stream\n"
                                      "  - name: b\n    model: " << model << "\n"
                                      "    target: null:sleep?us=1000\n    scenario: camera:2@20fps\n";
  std::ofstream(dir + "/suite.yaml") << "name: s\nmixes: [mix.yaml]\n";
  const std::string suite = Executable() + " suite " + dir + "/suite.yaml --out " + dir + "/store";
  const auto first = RunCommand(suite + " 2>&1");
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("interference in mix pair"), std::string::npos) << first.output;
  auto records = ReadRecords(dir + "/store/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 4u) << first.output;
  for (const Record& r : records.value()) {
    ASSERT_TRUE(r.mix);
    EXPECT_EQ(r.mix->run, records.value().front().mix->run);  // one run, alone and mixed
  }
  const auto again = RunCommand(suite + " 2>&1");
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find("already holds a run of mix 'pair'"), std::string::npos) << again.output;
  const auto resumed = RunCommand(suite + " --resume 2>&1");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("mix pair is in the store already"), std::string::npos) << resumed.output;
  EXPECT_EQ(ReadRecords(dir + "/store/results.jsonl").value().size(), 4u);
  std::filesystem::remove_all(dir);
}

// isolation: together: the mixed phase in one process. Beside a workload that does not crash,
// both are measured and tagged so; beside one that crashes, both mixed records are crashed, the
// crasher named in the other's, while the alone records stay as they were.
TEST(MixCli, WorkloadsSharingAProcessAreMeasuredTogetherAndFallTogether) {
  const std::string dir = testing::TempFilePath("mix_cli", "together");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string model = testing::TestModel("drift_mlp_other.onnx");
  auto write = [&](const std::string& second_target) {
    std::ofstream(dir + "/mix.yaml") << "name: shared\nduration: 1s\nisolation: together\nworkloads:\n"
                                        "  - name: cam\n    model: " << model << "\n"
                                        "    target: null:sleep?us=2000\n    scenario: camera:2@50fps\n"
                                        "  - name: second\n    model: " << model << "\n"
                                        "    target: " << second_target << "\n    scenario: single-stream\n";
  };
  write("null:spin?us=1000");
  const auto ok = RunCommand(Executable() + " run " + dir + "/mix.yaml --out " + dir + "/ok 2>&1");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("isolation: together: the mixed phase's workloads ran on threads of one process"),
            std::string::npos)
      << ok.output;
  auto records = ReadRecords(dir + "/ok/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 4u) << ok.output;
  std::vector<const Record*> mixed;
  for (const Record& r : records.value()) {
    ASSERT_TRUE(r.mix);
    EXPECT_EQ(r.status, CaseStatus::kOk) << r.error;
    EXPECT_EQ(r.mix->isolation, r.mix->phase == "mixed" ? "together" : "processes");
    if (r.mix->phase == "mixed") mixed.push_back(&r);
  }
  ASSERT_EQ(mixed.size(), 2u);
  // One process: the same start, end and exit for both.
  EXPECT_EQ(mixed[0]->mix->process_start_ns, mixed[1]->mix->process_start_ns);
  EXPECT_EQ(mixed[0]->mix->process_end_ns, mixed[1]->mix->process_end_ns);
  EXPECT_EQ(mixed[0]->mix->exit_code, 0);

  write("null:sleep?us=1000&crash_at=50");
  const auto crashed = RunCommand(Executable() + " run " + dir + "/mix.yaml --out " + dir + "/crash 2>&1");
  EXPECT_EQ(crashed.exit_code, 1) << crashed.output;
  records = ReadRecords(dir + "/crash/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 4u) << crashed.output;
  for (const Record& r : records.value()) {
    ASSERT_TRUE(r.mix);
    if (r.mix->phase == "alone") {
      EXPECT_EQ(r.status, r.mix->workload == "cam" ? CaseStatus::kOk : CaseStatus::kCrashed) << r.error;
      continue;
    }
    EXPECT_EQ(r.status, CaseStatus::kCrashed) << r.mix->workload;
    EXPECT_EQ(r.mix->exit_code, 128 + SIGABRT);
    if (r.mix->workload == "cam") {
      EXPECT_NE(r.error.find("when the thread of workload 'second' crashed"), std::string::npos) << r.error;
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
