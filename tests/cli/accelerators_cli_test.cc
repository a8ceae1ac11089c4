// Accelerators on the build root's software devices (docs/accelerators.md): llama.cpp and
// LiteRT's GPU accelerator on Vulkan (Mesa's lavapipe) and OpenCV DNN on OpenCL (PoCL), run by
// the tool as a user runs them. Their
// records say where the model ran, label the device emulated and give it no roofline share.
// Each test skips where `edgebench devices` lists no such device (a build without the packages).
#include <gtest/gtest.h>

#include "../test_util.h"
#include "backends/build_config.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

// The line `edgebench devices` prints for TARGET with ENV set, or "" when it lists none.
std::string AcceleratorDevicesLine(const std::string& env, const std::string& target) {
  const auto r = RunCommand(env + " " + Executable() + " devices 2>&1");
  size_t at = r.output.find("\n" + target + " ");
  if (at == std::string::npos) return "";
  const size_t end = r.output.find('\n', at + 1);
  return r.output.substr(at + 1, end - at - 1);
}

std::string EmulatedRecordNotes(const json& record) {
  std::string text;
  for (const json& n : record.value("notes", json::array())) text += n.get<std::string>() + "\n";
  return text;
}

TEST(AcceleratorsCli, LlamaCppOnLavapipeOffloadsAsAskedAndSaysItIsEmulated) {
  if (!EDGEBENCH_WITH_LLAMACPP) GTEST_SKIP() << "built without llama.cpp";
  const std::string env = "GGML_VK_VISIBLE_DEVICES=0";
  const std::string line = AcceleratorDevicesLine(env, "llamacpp:vulkan0");
  if (line.find(" yes ") == std::string::npos) GTEST_SKIP() << "no Vulkan device for ggml here: " << line;
  ASSERT_NE(line.find("(emulated: lavapipe"), std::string::npos) << line;
  const auto r = RunCommand(env + " " + Executable() + " llm " + TestModel("llama-tiny.gguf") +
                            " -t 'llamacpp:vulkan0?ngl=2&threads=1' --prompt 8 --gen 4 --repeat 2 --warmup 0"
                            " --allow-busy --format jsonl 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonLineRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const json& record = records[0];
  ASSERT_EQ(record["status"], "ok") << record["failure"];
  EXPECT_NE(record["config"]["effective_target"].get<std::string>().find("ngl=2"), std::string::npos)
      << record["config"]["effective_target"];
  const json& placed = record["llm"]["runtime_environment"];
  EXPECT_EQ(placed["offload"], "2/3 layers") << placed;
  EXPECT_NE(placed["kv_layers"].get<std::string>().find("Vulkan0"), std::string::npos) << placed;
  EXPECT_TRUE(placed.contains("buffers.Vulkan0")) << placed;
  EXPECT_EQ(placed["GGML_VK_VISIBLE_DEVICES"], "0") << placed;
  EXPECT_NE(EmulatedRecordNotes(record).find("emulated: lavapipe"), std::string::npos) << EmulatedRecordNotes(record);
  EXPECT_EQ(record["llm"]["summary"]["roofline"]["omitted"].get<std::string>().rfind("emulated device (lavapipe", 0),
            0u)
      << record["llm"]["summary"]["roofline"];
}

// Token drift of the same GGUF on lavapipe against the CPU (--candidate-target): the candidate's
// row runs on the device, and a model at F16 drifts little there but is compared, not assumed.
TEST(AcceleratorsCli, TokenDriftOfADeviceAgainstTheCpuRunsTheCandidateThere) {
  if (!EDGEBENCH_WITH_LLAMACPP) GTEST_SKIP() << "built without llama.cpp";
  const std::string env = "GGML_VK_VISIBLE_DEVICES=0";
  const std::string line = AcceleratorDevicesLine(env, "llamacpp:vulkan0");
  if (line.find(" yes ") == std::string::npos) GTEST_SKIP() << "no Vulkan device for ggml here: " << line;
  const std::string model = TestModel("llama-tiny.gguf");
  const auto r = RunCommand(env + " " + Executable() + " drift --reference " + model + " --candidate " + model +
                            " -t 'llamacpp:cpu?threads=1' --candidate-target 'llamacpp:vulkan0?threads=1'"
                            " --random-prompts 1 --max-tokens 8 --format json 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = testing::JsonLineRecords(r.output);
  ASSERT_EQ(rows.size(), 2u) << r.output;  // the reference against itself, then the candidate
  EXPECT_EQ(rows[0]["target"].get<std::string>().rfind("llamacpp:cpu", 0), 0u) << rows[0]["target"];
  EXPECT_EQ(rows[1]["target"].get<std::string>().rfind("llamacpp:vulkan0", 0), 0u) << rows[1]["target"];
  ASSERT_TRUE(rows[1].contains("drift")) << rows[1];
  EXPECT_LT(rows[1]["drift"]["max_kld"].get<double>(), 0.01) << rows[1]["drift"];
  // A tensor drift has no such option yet: refused, not ignored.
  const auto tensor = RunCommand(Executable() + " drift --reference " + TestModel("vit_micro.onnx") + " --candidate " +
                                 TestModel("vit_micro.onnx") + " --candidate-target ort:xnnpack 2>&1");
  EXPECT_EQ(tensor.exit_code, 2) << tensor.output;
  EXPECT_NE(tensor.output.find("--candidate-target: GGUF language models only"), std::string::npos) << tensor.output;
}

TEST(AcceleratorsCli, OpenCvOnPoclRunsAndItsRecordHasNoRooflineShare) {
  if (!EDGEBENCH_WITH_OPENCV) GTEST_SKIP() << "built without OpenCV";
  const std::string env = "OPENCV_OPENCL_DEVICE=:CPU: OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES=1";
  const std::string line = AcceleratorDevicesLine(env, "opencv:opencl");
  if (line.find(" yes ") == std::string::npos) GTEST_SKIP() << "no OpenCL platform for OpenCV here: " << line;
  ASSERT_NE(line.find("(emulated: "), std::string::npos) << line;
  const auto r = RunCommand(env + " " + Executable() + " run " + std::string(EDGEBENCH_SOURCE_DIR) +
                            "/tests/models/torch/mobilenet-tiny-test.onnx --dim '*=1' -t opencv:opencl"
                            " --warmup 2 --min-queries 5 --min-duration 0 --allow-busy --format jsonl 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonLineRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const json& record = records[0];
  ASSERT_EQ(record["status"], "ok") << record["failure"];
  EXPECT_NE(record["config"]["effective_target"].get<std::string>().find("opencl_device="), std::string::npos)
      << record["config"]["effective_target"];
  EXPECT_NE(EmulatedRecordNotes(record).find("emulated: PoCL"), std::string::npos) << EmulatedRecordNotes(record);
  ASSERT_TRUE(record.contains("roofline")) << record.dump().substr(0, 2000);
  EXPECT_EQ(record["roofline"]["omitted"].get<std::string>().rfind("emulated device (PoCL", 0), 0u)
      << record["roofline"];
}

TEST(AcceleratorsCli, LiteRtOnLavapipeRunsWhollyOnTheGpuAndAgreesWithXnnpack) {
  const std::string line = AcceleratorDevicesLine("", "litert:gpu");
  if (line.find(" yes ") == std::string::npos) GTEST_SKIP() << "no LiteRT GPU accelerator here: " << line;
  const std::string model = std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/torch/mobilenet-tiny-test.tflite";
  const auto r = RunCommand(Executable() + " run " + model + " -t 'litert:gpu?fallback=fail'" +
                            " --warmup 2 --min-queries 5 --min-duration 0 --allow-busy --format jsonl 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // LiteRT's and Dawn's log lines are not the user's to read.
  EXPECT_EQ(r.output.find("I0000 "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("INFO: "), std::string::npos) << r.output;
  const auto records = testing::JsonLineRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const json& record = records[0];
  ASSERT_EQ(record["status"], "ok") << record["failure"];
  EXPECT_EQ(record["placement"]["nodes_by_device"], json({{"gpu", 22}})) << record["placement"];
  const std::string effective = record["config"]["effective_target"];
  EXPECT_NE(effective.find("adapter=llvmpipe"), std::string::npos) << effective;
  EXPECT_NE(effective.find("precision=fp16"), std::string::npos) << effective;
  EXPECT_NE(EmulatedRecordNotes(record).find("emulated: llvmpipe"), std::string::npos) << EmulatedRecordNotes(record);
  EXPECT_EQ(record["roofline"]["omitted"].get<std::string>().rfind("emulated device (llvmpipe", 0), 0u)
      << record["roofline"];
  // At the GPU's fp16, within agree's tolerance of XNNPACK's fp32.
  const auto agreed = RunCommand(Executable() + " agree " + model + " -t litert:xnnpack,litert:gpu 2>&1");
  EXPECT_EQ(agreed.exit_code, 0) << agreed.output;
  const size_t gpu_row = agreed.output.find("\nlitert:gpu ");
  ASSERT_NE(gpu_row, std::string::npos) << agreed.output;
  EXPECT_NE(agreed.output.substr(gpu_row, agreed.output.find('\n', gpu_row + 1) - gpu_row).find("PASS"),
            std::string::npos)
      << agreed.output;
}

}  // namespace
}  // namespace edgebench
