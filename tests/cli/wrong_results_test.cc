// Results that would look valid but measure something else, vacuous successes, and faults
// (issue 8): each of these passed as VALID or exit 0 before.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

nlohmann::json FirstPrintedRecord(const std::string& json_array) {
  const auto records = nlohmann::json::parse(json_array, nullptr, false);
  if (records.is_discarded() || !records.is_array() || records.empty()) return nullptr;
  return records[0];
}

TEST(WrongResults, ADimThatNamesNoInputIsAnErrorNotAStaticShapeMeasured) {
  auto r = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") +
                      " --target ort:cpu --dim batch=8 --min-queries 3 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  const auto record = FirstPrintedRecord(r.output);
  ASSERT_FALSE(record.is_null()) << r.output;
  EXPECT_EQ(record["status"], "failed");
  EXPECT_EQ(record["failure"]["stage"], "inputs");
  const std::string why = record["failure"]["error"];
  EXPECT_NE(why.find("--dim batch=8 named no symbolic dimension"), std::string::npos) << why;
  EXPECT_NE(why.find("pixel_values [1x3x32x32]"), std::string::npos) << why;
}

TEST(WrongResults, ATfliteDimBeyondInt32IsRefusedNotNarrowed) {
  auto r = RunCommand(Executable() + " run " + testing::OwwDir() + "/embedding_model.tflite" +
                      " --target litert:cpu --dim '*=3000000000' --min-queries 3 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  const auto record = FirstPrintedRecord(r.output);
  ASSERT_FALSE(record.is_null()) << r.output;
  EXPECT_EQ(record["status"], "failed");
  const std::string why = record["failure"]["error"];
  EXPECT_NE(why.find("3000000000 is outside the runtime's range (0 to 2147483647)"), std::string::npos) << why;
}

TEST(WrongResults, TheRecordStatesTheShapeTheRuntimePrepared) {
  auto r = RunCommand(Executable() + " run " + testing::OwwDir() + "/embedding_model.tflite" +
                      " --target litert:cpu --dim '*=2' --warmup 1 --min-queries 3 --min-duration 0 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto record = FirstPrintedRecord(r.output);
  ASSERT_FALSE(record.is_null()) << r.output;
  EXPECT_EQ(record["config"]["inputs"][0]["shape"], (std::vector<int64_t>{2, 76, 32, 1}));
}

TEST(WrongResults, AMistypedModelPathIsAnErrorNotEveryTargetSkipped) {
  auto missing = RunCommand(Executable() + " run /tmp/no_such_model_file --target ort:cpu,litert:cpu 2>&1");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("model file '/tmp/no_such_model_file' does not exist"), std::string::npos)
      << missing.output;
  auto directory = RunCommand(Executable() + " run /tmp --target ort:cpu 2>&1");
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_NE(directory.output.find("'/tmp' is a directory, not a model file"), std::string::npos) << directory.output;
}

TEST(WrongResults, ARunInWhichEveryTargetIsSkippedIsNotSuccess) {
  auto r = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") + " --target litert:cpu 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("nothing was measured (1 of 1 cases skipped"), std::string::npos) << r.output;
}

TEST(WrongResults, AFailedLlmCaseKeepsItsConfiguration) {
  auto r = RunCommand(Executable() + " llm " + TestModel("llama-tiny-truncated.gguf") +
                      " --prompt 7 --gen 3 --repeat 2 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  const auto record = FirstPrintedRecord(r.output);
  ASSERT_FALSE(record.is_null()) << r.output;
  EXPECT_EQ(record["status"], "failed");
  EXPECT_EQ(record["llm"]["settings"]["prompt_tokens"], 7);
  EXPECT_EQ(record["llm"]["settings"]["gen_tokens"], 3);
  EXPECT_EQ(record["llm"]["settings"]["repetitions"], 2);
}

TEST(WrongResults, SigtermStopsTheRunWithTheRecordsSoFarIntact) {
  const std::string dir = "/tmp/edgebench_sigterm_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  const pid_t pid = testing::SpawnQuietly({"run", "none", "--target",
                                           "null:sleep?us=1000,null:sleep?us=2000,null:sleep?us=3000",
                                           "--min-queries", "3", "--warmup", "1", "--min-duration", "3000",
                                           "--out", dir});
  ASSERT_GE(pid, 0);
  const std::string store = dir + "/results.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(store) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // into the second case
  const auto sent = std::chrono::steady_clock::now();
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const auto took = std::chrono::steady_clock::now() - sent;
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_LT(took, std::chrono::seconds(2));  // the second case (3 s) was not waited for
  auto records = ReadRecords(store);
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 1u);
  EXPECT_EQ(records.value()[0].status, CaseStatus::kOk);
  std::filesystem::remove_all(dir);
}

TEST(ConsistentErrors, UnknownBackendsAndDevicesAreBadArgumentsAlike) {
  auto backend = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") + " --target tpu:npu 2>&1");
  EXPECT_EQ(backend.exit_code, 2);
  EXPECT_NE(backend.output.find("unknown backend 'tpu'"), std::string::npos) << backend.output;
  auto device = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") + " --target ort:gpu 2>&1");
  EXPECT_EQ(device.exit_code, 2);
  EXPECT_NE(device.output.find("backend 'ort' has no device 'gpu'; its devices: ort:cpu"), std::string::npos)
      << device.output;
}

TEST(ConsistentErrors, MeaninglessFlagValuesAreRejectedNamingTheFlag) {
  auto out = RunCommand(Executable() + " run none --target null:spin --out '' 2>&1");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.output.find("--out: must not be empty"), std::string::npos) << out.output;
  const std::string llm = Executable() + " llm " + TestModel("llama-tiny.gguf");
  auto both = RunCommand(llm + " --prompt 16 --prompt-text hello 2>&1");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.output.find("--prompt excludes --prompt-text"), std::string::npos) << both.output;
  auto empty = RunCommand(llm + " --prompt-text '' 2>&1");
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.output.find("--prompt-text: must not be empty"), std::string::npos) << empty.output;
}

TEST(ConsistentErrors, FailOnInvalidMakesAnInvalidVerdictExitOne) {
  // A coefficient-of-variation limit no real run meets: measured, but INVALID.
  const std::string command = Executable() +
                              " run none --target 'null:sleep?us=200' --warmup 0 --min-queries 20 "
                              "--min-duration 0 --max-cv 0.000001 --format json";
  auto lenient = RunCommand(command + " 2>/dev/null");
  EXPECT_EQ(lenient.exit_code, 0);
  const auto record = FirstPrintedRecord(lenient.output);
  ASSERT_FALSE(record.is_null()) << lenient.output;
  ASSERT_FALSE(record["verdict"]["valid"].get<bool>());
  auto strict = RunCommand(command + " --fail-on-invalid 2>&1 >/dev/null");
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_NE(strict.output.find("1 of 1 measured cases are INVALID"), std::string::npos) << strict.output;
}

TEST(NoRunaways, AWorkerOverItsMemoryLimitIsAnOomRecordAndTheRunGoesOn) {
  auto r = RunCommand(Executable() + " run none --target 'null:spin?us=20000&grow_mb=64,null:spin?us=10'" +
                      " --case-memory 200 --warmup 0 --min-queries 20 --min-duration 0 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  const auto records = nlohmann::json::parse(r.output, nullptr, false);
  ASSERT_TRUE(records.is_array() && records.size() == 2) << r.output;
  EXPECT_EQ(records[0]["status"], "oom");
  const std::string why = records[0]["failure"]["error"];
  EXPECT_NE(why.find("over the case's limit of 200 MiB"), std::string::npos) << why;
  EXPECT_EQ(records[1]["status"], "ok");
}

}  // namespace
}  // namespace edgebench
