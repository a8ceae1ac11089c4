// LiteRT backend on real MediaPipe models (fixtures).
#include "backends/litert/litert_backend.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "backends/litert/litert_xnnpack_session.h"
#include "inputs/input_generator.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

std::vector<Tensor> RunOnce(Session& s) {
  auto shapes = ResolveInputShapes(s.signature(), {{"*", 1}}).take();
  EXPECT_TRUE(s.Prepare(shapes).ok());
  auto inputs = GenerateInputs(s.signature(), shapes, 3).take();
  std::vector<Tensor> outputs;
  const Status status = s.Run(inputs, outputs);
  EXPECT_TRUE(status.ok()) << status.message();
  return outputs;
}

TEST(LiteRtBackend, RunsBlazeFaceOnBuiltinKernels) {
  auto backend = MakeLiteRtBackend();
  auto s = backend->Load({BlazeFaceShort()}, ParseTarget("litert:cpu?threads=1").take());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(ShapeToString(s.value()->signature().inputs[0].shape), "[1x128x128x3]");
  auto out = RunOnce(*s.value());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape, (std::vector<int64_t>{1, 896, 16}));
  const Placement p = s.value()->GetPlacement();
  EXPECT_EQ(p.nodes_by_device.at("cpu"), 164);
  EXPECT_EQ(p.ops_by_device.at("cpu").at("CONV_2D"), 21);
  EXPECT_EQ(p.delegate_partitions, 0);
  EXPECT_EQ(p.model_nodes, 164);
  EXPECT_EQ(p.original_nodes_by_device, (std::map<std::string, int>{{"cpu", 164}}));
  EXPECT_TRUE(p.partitions_by_device.empty());
  EXPECT_TRUE(p.cpu_op_types.empty());  // the CPU was asked for
}

TEST(LiteRtBackend, FallbackFailLeavesAWhollyPlacedModelAlone) {
  // BlazeFace runs wholly on builtin kernels (litert:cpu) and wholly on XNNPACK.
  auto backend = MakeLiteRtBackend();
  auto cpu = backend->Load({BlazeFaceShort()}, ParseTarget("litert:cpu?fallback=fail").take());
  ASSERT_TRUE(cpu.ok()) << cpu.error();
  EXPECT_EQ(cpu.value()->effective_options().at("fallback"), "fail");
  auto xnn = backend->Load({BlazeFaceShort()}, ParseTarget("litert:xnnpack?fallback=fail&threads=1").take());
  ASSERT_TRUE(xnn.ok()) << xnn.error();
  EXPECT_EQ(xnn.value()->effective_options().at("fallback"), "fail");
  const Placement p = xnn.value()->GetPlacement();
  EXPECT_EQ(p.model_nodes, 164);
  EXPECT_EQ(p.original_nodes_by_device, (std::map<std::string, int>{{"xnnpack", 164}}));
  EXPECT_EQ(p.partitions_by_device, (std::map<std::string, int>{{"xnnpack", 1}}));
  EXPECT_TRUE(p.cpu_op_types.empty());
  for (const std::string& note : xnn.value()->notes()) EXPECT_EQ(note.find("fallback"), std::string::npos) << note;
  auto allow = backend->Load({BlazeFaceShort()}, ParseTarget("litert:xnnpack?threads=1").take());
  ASSERT_TRUE(allow.ok()) << allow.error();
  EXPECT_EQ(allow.value()->effective_options().count("fallback"), 0u);
  auto bad = backend->Load({BlazeFaceShort()}, ParseTarget("litert:cpu?fallback=sometimes").take());
  EXPECT_FALSE(bad.ok());
}

TEST(LiteRtBackend, FallbackFailRefusesAModelXnnpackTakesInPart) {
  // openWakeWord's hey_jarvis: XNNPACK takes 23 of its 26 operators; an IF and its condition
  // stay on builtin kernels.
  auto backend = MakeLiteRtBackend();
  const std::string model = OwwDir() + "/hey_jarvis_v0.1.tflite";
  auto allow = backend->Load({model}, ParseTarget("litert:xnnpack?threads=1").take());
  ASSERT_TRUE(allow.ok()) << allow.error();
  const Placement p = allow.value()->GetPlacement();
  EXPECT_EQ(p.model_nodes, 26);
  EXPECT_EQ(p.original_nodes_by_device, (std::map<std::string, int>{{"cpu", 3}, {"xnnpack", 23}}));
  EXPECT_EQ(p.cpu_op_types,
            (std::map<std::string, int>{{"GREATER_EQUAL", 1}, {"IF", 1}, {"RESHAPE", 1}}));
  EXPECT_TRUE(p.partitions_by_device.empty());  // LiteRT's C API does not say
  const std::vector<std::string> notes = allow.value()->notes();
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "fallback=allow: 3 of 26 nodes stayed on the CPU (op types: GREATER_EQUAL x1, "
                      "IF x1, RESHAPE x1) (LiteRT's builtin kernels)"),
            notes.end());
  auto fail = backend->Load({model}, ParseTarget("litert:xnnpack?threads=1&fallback=fail").take());
  ASSERT_FALSE(fail.ok());
  EXPECT_EQ(fail.error(),
            "fallback=fail: 3 of 26 nodes stayed on the CPU (op types: GREATER_EQUAL x1, IF x1, "
            "RESHAPE x1); LiteRT would have run them on its builtin kernels with fallback=allow");
}

TEST(LiteRtBackend, RunsFullRangeBlazeFace) {
  auto backend = MakeLiteRtBackend();
  auto s = backend->Load({BlazeFaceFull()}, ParseTarget("litert:cpu").take());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(ShapeToString(s.value()->signature().inputs[0].shape), "[1x192x192x3]");
  EXPECT_FALSE(RunOnce(*s.value()).empty());
}

TEST(LiteRtBackend, DynamicBatchIsResized) {
  auto backend = MakeLiteRtBackend();
  auto s = backend->Load({OwwDir() + "/embedding_model.tflite"}, ParseTarget("litert:cpu").take());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s.value()->signature().inputs[0].shape[0].symbol, "?");
  ASSERT_TRUE(s.value()->Prepare({{3, 76, 32, 1}}).ok());
  auto inputs = GenerateInputs(s.value()->signature(), {{3, 76, 32, 1}}, 0).take();
  std::vector<Tensor> out;
  ASSERT_TRUE(s.value()->Run(inputs, out).ok());
  EXPECT_EQ(out[0].shape, (std::vector<int64_t>{3, 1, 1, 96}));
}

TEST(LiteRtBackend, DynamicInputIsResizedBeforeTheFirstAllocation) {
  // melspectrogram's input is [?x?]; built at [1x1], its STFT convolution cannot be prepared,
  // so allocating in Load made the model unusable at every shape.
  const std::string model = OwwDir() + "/melspectrogram.tflite";
  auto backend = MakeLiteRtBackend();
  auto s = backend->Load({model}, ParseTarget("litert:cpu?threads=1").take());
  ASSERT_TRUE(s.ok()) << s.error();
  const Status prepared = s.value()->Prepare({{1, 1280}});
  ASSERT_TRUE(prepared.ok()) << prepared.message();
  EXPECT_EQ(s.value()->PreparedInputShapes(), (std::vector<std::vector<int64_t>>{{1, 1280}}));
  auto inputs = GenerateInputs(s.value()->signature(), {{1, 1280}}, 0).take();
  std::vector<Tensor> out;
  ASSERT_TRUE(s.value()->Run(inputs, out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].data.empty());
  // A shape the model cannot run is an error of the prepare stage that names it.
  const Status too_short = s.value()->Prepare({{1, 100}});
  ASSERT_FALSE(too_short.ok());
  EXPECT_NE(too_short.message().find("could not allocate tensors for input shapes [1x100]"), std::string::npos)
      << too_short.message();

  // As a user runs it: the record states the shape that ran.
  auto r = RunCommand(Executable() + " run " + model + " --target litert:cpu --dim input.0=1 --dim input.1=1280"
                      " --min-queries 3 --warmup 1 --min-duration 0 --format jsonl 2>/dev/null");
  const auto record = nlohmann::json::parse(r.output);
  EXPECT_EQ(record["status"], "ok") << r.output;
  EXPECT_EQ(record["config"]["inputs"][0]["name"], "input");
  EXPECT_EQ(record["config"]["inputs"][0]["shape"], nlohmann::json::parse("[1, 1280]"));
}

TEST(LiteRtBackend, XnnpackRunsTheCompiledShapeAndRefusesOthers) {
  auto backend = MakeLiteRtBackend();
  auto s = backend->Load({OwwDir() + "/embedding_model.tflite"}, ParseTarget("litert:xnnpack").take());
  ASSERT_TRUE(s.ok()) << s.error();
  // The dynamic batch axis is reported as such, from the model's shape signature.
  EXPECT_EQ(s.value()->signature().inputs[0].shape[0].symbol, "?");
  const Status other = s.value()->Prepare({{3, 76, 32, 1}});
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.message().find("compiled input shape [1x76x32x1]"), std::string::npos) << other.message();
  ASSERT_TRUE(s.value()->Prepare({{1, 76, 32, 1}}).ok());
  auto inputs = GenerateInputs(s.value()->signature(), {{1, 76, 32, 1}}, 0).take();
  std::vector<Tensor> out;
  ASSERT_TRUE(s.value()->Run(inputs, out).ok());
  EXPECT_EQ(out[0].shape, (std::vector<int64_t>{1, 1, 1, 96}));
}

TEST(LiteRtBackend, XnnpackSuggestsLiteRtCpuOnlyWhereItRunsTheShape) {
  // melspectrogram is compiled at [1x1]; litert:cpu runs [1x1280] but not [1x100].
  auto backend = MakeLiteRtBackend();
  auto s = backend->Load({OwwDir() + "/melspectrogram.tflite"}, ParseTarget("litert:xnnpack").take());
  ASSERT_TRUE(s.ok()) << s.error();
  const Status runs = s.value()->Prepare({{1, 1280}});
  ASSERT_FALSE(runs.ok());
  EXPECT_NE(runs.message().find("compiled input shape [1x1], not [1x1280] (input 'input'); litert:cpu runs it at "
                                "this shape"),
            std::string::npos)
      << runs.message();
  const Status neither = s.value()->Prepare({{1, 100}});
  ASSERT_FALSE(neither.ok());
  EXPECT_NE(neither.message().find("not [1x100] (input 'input'); litert:cpu cannot run it at this shape either "
                                   "(TensorFlow Lite could not allocate tensors for input shapes [1x100]"),
            std::string::npos)
      << neither.message();
  EXPECT_EQ(neither.message().find("litert:cpu runs"), std::string::npos) << neither.message();
}

TEST(LiteRtBackend, CustomOpErrorNamesTheOp) {
  auto backend = MakeLiteRtBackend();
  auto s = backend->Load({SelfieSegmentation()}, ParseTarget("litert:cpu").take());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("custom operator 'Convolution2DTransposeBias'"), std::string::npos) << s.error();
}

TEST(LiteRtBackend, TruncatedModelIsAClearError) {
  auto backend = MakeLiteRtBackend();
  for (const char* target : {"litert:cpu", "litert:xnnpack"}) {
    auto s = backend->Load({FixtureVariant("face_short_truncated.tflite")}, ParseTarget(target).take());
    ASSERT_FALSE(s.ok()) << target;
    EXPECT_NE(s.error().find("face_short_truncated.tflite"), std::string::npos) << s.error();
    EXPECT_NE(s.error().find("not a valid .tflite"), std::string::npos) << s.error();
  }
}

TEST(LiteRtBackend, XnnpackTargetRunsOnXnnpackAndAgreesWithBuiltin) {
  auto backend = MakeLiteRtBackend();
  auto xnn = backend->Load({BlazeFaceShort()}, ParseTarget("litert:xnnpack?threads=1").take());
  ASSERT_TRUE(xnn.ok()) << xnn.error() << " (scripts/fixtures fetches the LiteRT library)";
  const Placement p = xnn.value()->GetPlacement();
  EXPECT_EQ(p.nodes_by_device.at("xnnpack"), 164);
  EXPECT_EQ(p.nodes_by_device.count("cpu"), 0u);
  auto builtin = backend->Load({BlazeFaceShort()}, ParseTarget("litert:cpu?threads=1").take());
  ASSERT_TRUE(builtin.ok());
  auto a = RunOnce(*builtin.value());
  auto b = RunOnce(*xnn.value());
  ASSERT_EQ(a.size(), b.size());
  for (int i = 0; i < 100; ++i) EXPECT_NEAR(a[0].as<float>()[i], b[0].as<float>()[i], 1e-3);
}

TEST(LiteRtBackend, ProfileSummaryParsing) {
  const std::string summary =
      "============ Run Order ============\n"
      "   DEQUANTIZE   0.0  0.1  0.0  1%  1%  0  30   [Builtin]:0\n"
      "   Delegate/Add (ND)  0.0  0.1  0.0  1%  1%  0  30   [Delegate]:1\n"
      "   DEQUANTIZE   0.0  0.1  0.0  1%  1%  0  30   [Builtin]:2\n"
      "============ Top by Computation Time ============\n"
      "   DEQUANTIZE   0.0  0.1  0.0  1%  1%  0  30   [Builtin]:0\n";
  const auto builtin = BuiltinNodesInProfile(summary);
  ASSERT_EQ(builtin.size(), 1u);
  EXPECT_EQ(builtin.at("DEQUANTIZE"), 2);
}

TEST(LiteRtBackend, TheWebGpuAdapterComesFromItsLogLineAndSoftwareOnesAreKnown) {
  const std::string lavapipe = "llvmpipe (LLVM 21.1.8, 256 bits), arch=software, vendor=mesa, backend=Vulkan, "
                               "adapterType=CPU / Software";
  EXPECT_EQ(WebGpuAdapterInLine("I0000 00:00:1796610009.796293   16434 environment.cc:532] Selected adapter: " +
                                lavapipe + "\r"),
            lavapipe);
  EXPECT_EQ(WebGpuAdapterInLine("I0000 00:00:17 environment.cc:532] Created a WebGPU environment."), "");
  EXPECT_TRUE(IsSoftwareWebGpuAdapter(lavapipe));
  EXPECT_TRUE(IsSoftwareWebGpuAdapter("SwiftShader Device (Subzero), backend=Vulkan, adapterType=CPU"));
  EXPECT_FALSE(IsSoftwareWebGpuAdapter("Mali-G610, vendor=arm, backend=Vulkan, adapterType=Integrated GPU"));
  EXPECT_FALSE(IsSoftwareWebGpuAdapter("NVIDIA RTX A2000, backend=Vulkan, adapterType=Discrete GPU"));
  EXPECT_FALSE(IsSoftwareWebGpuAdapter(""));
}

TEST(LiteRtBackend, MissingXnnpackIsReportedNeverRelabelled) {
  // Without LiteRT's library, litert:xnnpack must be unavailable with the reason, and never
  // run builtin kernels under the XNNPACK label.
  auto r = RunCommand("EDGEBENCH_LITERT_LIB=/nonexistent/libLiteRt.so " + Executable() + " run " +
                      BlazeFaceShort() + " --target litert:cpu,litert:xnnpack --min-queries 5"
                      " --warmup 1 --min-duration 0 --format jsonl");
  EXPECT_EQ(r.exit_code, 1);
  std::istringstream lines(r.output);
  std::string cpu, xnn;
  std::getline(lines, cpu);
  std::getline(lines, xnn);
  const auto cpu_record = nlohmann::json::parse(cpu);
  const auto xnn_record = nlohmann::json::parse(xnn);
  EXPECT_EQ(cpu_record["status"], "ok");
  EXPECT_EQ(xnn_record["status"], "unavailable");
  EXPECT_EQ(xnn_record["samples"]["measured"]["count"], 0);
  const std::string why = xnn_record["failure"]["error"];
  EXPECT_NE(why.find("without the XNNPACK delegate"), std::string::npos) << why;
  EXPECT_NE(why.find("/nonexistent/libLiteRt.so"), std::string::npos) << why;
}

TEST(LiteRtBackend, BothTargetsNameInputsAsTheModelsSignatureDoes) {
  auto r = RunCommand(Executable() + " run " + OwwDir() + "/embedding_model.tflite" +
                      " --target litert:cpu,litert:xnnpack --dim '*=1' --min-queries 3 --warmup 1"
                      " --min-duration 0 --format jsonl 2>/dev/null");
  std::istringstream lines(r.output);
  std::vector<std::string> names;
  for (std::string line; std::getline(lines, line);) {
    const auto record = nlohmann::json::parse(line);
    if (record["status"] == "ok") names.push_back(record["config"]["inputs"][0]["name"]);
  }
  ASSERT_FALSE(names.empty()) << r.output;
  for (const std::string& name : names) EXPECT_EQ(name, "input_1");  // not "serving_default_input_1:0"
}

}  // namespace
}  // namespace edgebench
