// OpenVINO through the executable (its plugin in its own worker): the same weights agree with
// ONNX Runtime and TensorFlow Lite; latency and throughput hints run with placement from
// OpenVINO's executed graph; --profile and --sessions shared work on it.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::Executable;
using testing::RunCommand;

std::string KeptModel(const std::string& name) {
  return std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/torch/" + name;
}

const std::string kQuickOpenVino = " --dim '*=1' --warmup 2 --min-queries 8 --min-duration 0 --format jsonl 2>/dev/null";

TEST(OpenVinoCli, AgreesWithOnnxRuntimeAndTfliteOnTheSameWeights) {
  for (const auto& [model, reference] :
       {std::pair{"vit=" + KeptModel("vit-tiny-test.onnx"), "ort:cpu"},
        std::pair{"mobilenet=" + KeptModel("mobilenet-tiny-test.tflite"), "litert:cpu"}}) {
    auto r = RunCommand(Executable() + " agree '" + model + "' --dim '*=1' -t " + reference +
                        ",'openvino:cpu?precision=f32' --format json 2>/dev/null");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const json report = json::parse(r.output);
    ASSERT_EQ(report["targets"].size(), 2u) << r.output;
    const json& openvino = report["targets"][1];
    EXPECT_TRUE(openvino["outputs"][0]["within_tolerance"].get<bool>()) << openvino.dump(2);
    EXPECT_GT(openvino["outputs"][0]["cosine"].get<double>(), 0.9999) << openvino.dump(2);
  }
}

TEST(OpenVinoCli, LatencyAndThroughputHintsRunWithPlacement) {
  auto r = RunCommand(Executable() + " run " + KeptModel("vit-tiny-test.onnx") +
                      " -t 'openvino:cpu?hint=latency,openvino:cpu?hint=throughput'" + kQuickOpenVino);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::vector<json> records = testing::JsonLineRecords(r.output);
  ASSERT_EQ(records.size(), 2u) << r.output;
  for (const json& record : records) {
    EXPECT_EQ(record["status"], "ok") << record.dump().substr(0, 600);
    EXPECT_GT(record["placement"]["nodes_by_device"]["cpu"].get<int>(), 0) << record["placement"].dump();
  }
  EXPECT_NE(records[1]["config"]["effective_target"].get<std::string>().find("hint=throughput"),
            std::string::npos)
      << records[1]["config"].dump();
}

TEST(OpenVinoCli, ProfileCoversEveryMeasuredRun) {
  auto r = RunCommand(Executable() + " run " + KeptModel("vit-tiny-test.onnx") +
                      " -t 'openvino:cpu?threads=1' --profile" + kQuickOpenVino);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json record = json::parse(r.output);
  ASSERT_TRUE(record.contains("profile")) << record.dump().substr(0, 400);
  const json& profile = record["profile"];
  ASSERT_FALSE(profile.contains("unavailable")) << profile.dump();
  const int64_t measured = record["samples"]["measured"]["count"];
  EXPECT_EQ(profile["runs"], measured);
  ASSERT_FALSE(profile["nodes"].empty());
  for (const json& node : profile["nodes"]) EXPECT_EQ(node["calls"], measured) << node.dump();
}

TEST(OpenVinoCli, SharedSessionRunsSeveralStreams) {
  auto r = RunCommand(Executable() + " run " + KeptModel("vit-tiny-test.onnx") +
                      " -t 'openvino:cpu?hint=throughput' --scenario multi-stream:2 --sessions shared" +
                      kQuickOpenVino);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::vector<json> records = testing::JsonLineRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  EXPECT_EQ(records[0]["status"], "ok") << records[0].dump().substr(0, 600);
}

// coverage --against: OpenVINO has no support table to check, so its own answer (query_model's
// count of the model's nodes) is said; a device OpenVINO cannot find here is said with its reason.
TEST(OpenVinoCli, CoverageSaysOpenVinosOwnAnswerAndWhyADeviceCannotAnswer) {
  auto r = RunCommand(Executable() + " coverage " + KeptModel("vit-tiny-test.onnx") +
                      " --against openvino:cpu,openvino:npu 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("openvino:cpu: no table for 'cpu' and onnx models to compare with; the runtime placed "),
            std::string::npos) << r.output;
  // (A machine with an NPU runs it instead, and is then answered like the CPU.)
  EXPECT_TRUE(r.output.find("openvino:npu: did not run (unavailable: ") != std::string::npos ||
              r.output.find("openvino:npu: no table for 'npu'") != std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace edgebench
