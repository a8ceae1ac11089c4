// --profile end to end: per-operator times from each runtime's own profiler over the measured
// runs only (every node of the graph counted once per measured run), in the record, the table
// and the trace; a runtime without a profiler says why instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../fixtures_util.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

const std::string kQuick = " --warmup 3 --min-queries 7 --min-duration 0 --format jsonl 2>/dev/null";

// Every node ran once per measured run, and the shares add up.
void ExpectCompleteProfile(const json& record) {
  ASSERT_TRUE(record.contains("profile")) << record.dump().substr(0, 400);
  const json& p = record["profile"];
  ASSERT_FALSE(p.contains("unavailable")) << p.dump();
  const int64_t measured = record["samples"]["measured"]["count"];
  EXPECT_EQ(p["runs"], measured);
  ASSERT_FALSE(p["nodes"].empty());
  for (const json& node : p["nodes"]) EXPECT_EQ(node["calls"], measured) << node.dump();
  double share = 0;
  for (const json& t : p["by_op_type"]) share += t["share"].get<double>();
  EXPECT_NEAR(share, 1.0, 0.01);
  // The share is the nodes' time over the measured queries' latencies, from the record's own
  // numbers: how much of a run the operators take depends on how busy the machine is (between
  // operators a preempted runtime waits), so no lower bound is asserted, but they cannot take
  // much more than all of it.
  int64_t operator_ns = 0;
  for (const json& node : p["nodes"]) operator_ns += node["total_ns"].get<int64_t>();
  EXPECT_EQ(p["operator_ns"].get<int64_t>(), operator_ns);
  const double measured_ns = record["summary"]["mean_ns"].get<double>() * static_cast<double>(measured);
  EXPECT_NEAR(p["share_of_measured_ns"].get<double>(), static_cast<double>(operator_ns) / measured_ns, 0.002);
  EXPECT_GT(p["share_of_measured_ns"].get<double>(), 0);
  EXPECT_LT(p["share_of_measured_ns"].get<double>(), 1.5);
}

TEST(ProfileCli, OnnxRuntimeTimesEveryNodeOfTheMeasuredRunsOnly) {
  // ORT writes its profile to a file: the session reads and removes it.
  const std::filesystem::path tmp = testing::TempFilePath("profile_", "tmpdir");
  std::filesystem::create_directories(tmp);
  auto r = RunCommand("TMPDIR=" + tmp.string() + " " + Executable() + " run " + TestModel("vit_micro.onnx") +
                      " -t ort:cpu?threads=1 --profile" + kQuick);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::is_empty(tmp)) << std::filesystem::directory_iterator(tmp)->path();
  std::filesystem::remove_all(tmp);
  const json record = json::parse(r.output);
  ExpectCompleteProfile(record);
  EXPECT_NE(record["profile"]["source"].get<std::string>().find("ONNX Runtime"), std::string::npos);
  EXPECT_EQ(record["profile"]["by_device"].size(), 1u);
  EXPECT_FALSE(record["profile"]["spans"]["node"].empty());
  // A profiled case is not the unprofiled one: its key differs.
  auto plain = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") + " -t ort:cpu?threads=1" + kQuick);
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  const json unprofiled = json::parse(plain.output);
  EXPECT_FALSE(unprofiled.contains("profile"));
  EXPECT_NE(unprofiled["case_key"], record["case_key"]);
}

TEST(ProfileCli, TheTableShowsTheTopOperatorsAndTheTraceTheOperators) {
  const std::string trace = testing::TempFilePath("profile_", "trace.json");
  auto r = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") +
                      " -t ort:cpu?threads=1 --profile --warmup 2 --min-queries 3 --min-duration 0 --trace " + trace +
                      " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("top operators (share of op time)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Gemm "), std::string::npos) << r.output;
  std::ifstream in(trace);
  const json events = json::parse(in)["traceEvents"];
  int operators = 0;
  for (const json& e : events) {
    if (e.value("cat", "") != "operator") continue;
    ++operators;
    EXPECT_EQ(e["ph"], "X");
    EXPECT_GE(e["ts"].get<double>(), 0);
    EXPECT_GE(e["dur"].get<double>(), 0);
    EXPECT_TRUE(e["tid"].is_number_integer());
    EXPECT_TRUE(e["args"]["node"].is_string());
  }
  EXPECT_GT(operators, 0);
  std::filesystem::remove(trace);
}

TEST(ProfileCli, TensorFlowLiteAndLiteRtTimeTheirOperators) {
  auto builtin = RunCommand(Executable() + " run " + testing::BlazeFaceShort() + " -t litert:cpu?threads=1 --profile" + kQuick);
  ASSERT_EQ(builtin.exit_code, 0) << builtin.output;
  const json cpu = json::parse(builtin.output);
  ExpectCompleteProfile(cpu);
  // Every node of the model's graph: builtin kernels run the model's own nodes.
  EXPECT_EQ(cpu["profile"]["nodes"].size(), cpu["placement"]["nodes_by_device"]["cpu"].get<size_t>());

  auto xnnpack = RunCommand(Executable() + " run " + testing::BlazeFaceShort() + " -t litert:xnnpack?threads=1 --profile" + kQuick);
  ASSERT_EQ(xnnpack.exit_code, 0) << xnnpack.output;
  const json xnn = json::parse(xnnpack.output);
  ExpectCompleteProfile(xnn);
  EXPECT_EQ(xnn["profile"]["by_device"].size(), 1u);
  EXPECT_TRUE(xnn["profile"]["by_device"].contains("xnnpack")) << xnn["profile"]["by_device"];
}

TEST(ProfileCli, ARuntimeWithoutAProfilerSaysWhy) {
  auto null = RunCommand(Executable() + " run x -t null:sleep?us=100 --profile" + kQuick);
  ASSERT_EQ(null.exit_code, 0) << null.output;
  const json record = json::parse(null.output);
  EXPECT_NE(record["profile"]["unavailable"].get<std::string>().find("reads no per-operator times"), std::string::npos);
  EXPECT_NE(record["notes"].dump().find("--profile: "), std::string::npos);

  auto llm = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                        " --prompt 8 --gen 4 --repeat 2 --warmup 1 --target llamacpp:cpu?threads=1 --profile --format jsonl 2>/dev/null");
  ASSERT_EQ(llm.exit_code, 0) << llm.output;
  const json llm_record = json::parse(llm.output.substr(0, llm.output.find('\n')));
  EXPECT_NE(llm_record["profile"]["unavailable"].get<std::string>().find("llama.cpp's API gives no per-operator times"),
            std::string::npos);
}

}  // namespace
}  // namespace edgebench
