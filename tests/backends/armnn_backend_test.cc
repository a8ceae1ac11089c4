// The Arm NN backend: the reading of Arm NN's dot text and profiler JSON (placement, per-workload
// times) on fixed texts, and the backend on the tiny PyTorch exports kept in tests/models/torch
// (outputs against eager PyTorch's, placement per layer, the profile, options, and bad input:
// a corrupt file, an operator Arm NN's parser does not know, a wrong shape). CpuRef is slow:
// only the tiny models run. A binary of its own, as each runtime's backend.
#include "backends/armnn/armnn_backend.h"
#include "backends/opencl_platforms.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "backends/armnn/armnn_graph.h"
#include "backends/armnn/armnn_tflite_options.h"
#include "inputs/npy_file.h"
#include "torch_exports.h"

namespace edgebench {

std::unique_ptr<Backend> MakeBackendUnderTest() { return MakeArmNnBackend(); }

namespace {

// SerializeToDot's text as Arm NN 23.08 writes it (two layers fused from three TFLite operators,
// one that fell back to CpuRef).
const char* kArmNnDot = R"(digraph Optimized {
    node [shape="record"];
    5 [label="{Input|Guid : 5\lLayerName : x\lLayerType : Input\lBackendID : CpuAcc\l}"];
    7 [label="{Constant|DataType : Float32\lGuid : 7\lLayerName : Constant:w\lLayerType : Constant\lBackendID : CpuAcc\l}"];
    0 [label="{Convolution2d|Guid : 0\lLayerName : folded-Pad:0:0-into-Conv2D:0:1\lLayerType : Convolution2d\lBackendID : CpuAcc\l}"];
    1 [label="{Activation|Function : ReLu\lGuid : 1\lLayerName : Conv2D:0:1:RELU6\lLayerType : Activation\lBackendID : CpuAcc\l}"];
    2 [label="{MemCopy|Guid : 2\lLayerName : [ Conv2D:0:1:RELU6 (0) -> Mean:0:2 (0) ]\lLayerType : MemCopy\lBackendID : CpuRef\l}"];
    3 [label="{Mean|Guid : 3\lLayerName : Mean:0:2\lLayerType : Mean\lBackendID : CpuRef\l}"];
    6 [label="{Output|Guid : 6\lLayerName : y\lLayerType : Output\lBackendID : CpuRef\l}"];
    5 -> 0 [label=< [1,3,8,8] >];
})";

TEST(ArmNnGraph, ReadsEachLayersBackendFromTheDotText) {
  auto layers = ParseArmNnDot(kArmNnDot);
  ASSERT_TRUE(layers.ok()) << layers.error();
  ASSERT_EQ(layers.value().size(), 7u);
  EXPECT_EQ(layers.value()[2].name, "folded-Pad:0:0-into-Conv2D:0:1");
  EXPECT_EQ(layers.value()[2].type, "Convolution2d");
  EXPECT_EQ(layers.value()[2].backend, "CpuAcc");
  EXPECT_EQ(layers.value()[5].backend, "CpuRef");
  EXPECT_FALSE(ParseArmNnDot("digraph Optimized {\n}\n").ok());
}

TEST(ArmNnGraph, NamesTheTfliteOperatorsOfALayer) {
  EXPECT_EQ(TfliteOperatorsOfLayer("folded-Pad:0:1-into-Conv2D:0:2"), (std::vector<int>{1, 2}));
  EXPECT_EQ(TfliteOperatorsOfLayer("Conv2D:0:12:RELU6"), (std::vector<int>{12}));
  EXPECT_TRUE(TfliteOperatorsOfLayer("serving_default_args_0").empty());
  EXPECT_TRUE(TfliteOperatorsOfLayer("Constant:__main__.Mlp/Linear_0;1").empty());
}

TEST(ArmNnGraph, PlacementCountsLayersAndTheModelsOperatorsByBackend) {
  auto layers = ParseArmNnDot(kArmNnDot);
  ASSERT_TRUE(layers.ok());
  std::vector<std::string> notes;
  const Placement p = ArmNnPlacement(layers.value(), "CpuAcc", 4, notes);
  EXPECT_TRUE(p.known);
  EXPECT_EQ(p.nodes_by_device.at("cpuacc"), 2);
  EXPECT_EQ(p.nodes_by_device.at("cpuref"), 2);  // the MemCopy and the Mean
  EXPECT_EQ(p.ops_by_device.at("cpuref").at("Mean"), 1);
  EXPECT_EQ(p.devices_used, (std::vector<std::string>{"cpuacc", "cpuref"}));
  ASSERT_TRUE(p.model_nodes.has_value());
  EXPECT_EQ(*p.model_nodes, 4);
  EXPECT_EQ(p.original_nodes_by_device.at("cpuacc"), 2);  // operators 0 and 1
  EXPECT_EQ(p.original_nodes_by_device.at("cpuref"), 1);  // operator 2
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("fell back for 2 of 4 layers"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("1 of the model's 4 TFLite operators"), std::string::npos) << notes[1];
  EXPECT_NE(notes[1].find("left out"), std::string::npos) << notes[1];
  // One backend for every layer: the operators that name none were folded into what ran there.
  std::vector<ArmNnLayer> one_backend = layers.value();
  for (ArmNnLayer& layer : one_backend) layer.backend = "CpuRef";
  std::vector<std::string> one_notes;
  const Placement q = ArmNnPlacement(one_backend, "CpuRef", 4, one_notes);
  EXPECT_EQ(q.original_nodes_by_device.at("cpuref"), 4);
  ASSERT_EQ(one_notes.size(), 1u);
  EXPECT_NE(one_notes[0].find("so they count there"), std::string::npos) << one_notes[0];
}

TEST(ArmNnGraph, SumsWorkloadTimesFromTheProfilersJson) {
  auto layers = ParseArmNnDot(kArmNnDot);
  ASSERT_TRUE(layers.ok());
  // Arm NN merges repeated inferences into one event: one "raw" value per run.
  auto timed = [](int n, const std::string& values) {
    return "\"Wall clock time_#" + std::to_string(n) + "\": {\"type\": \"Measurement\", \"raw\": [" + values +
           "], \"unit\": \"us\"}";
  };
  auto event = [&](const std::string& name, int n, const std::string& values) {
    return "\"" + name + "_#" + std::to_string(n) + "\": {\"type\": \"Event\", " + timed(n, values) + "}";
  };
  const std::string json =
      "{\n\t\"ArmNN\": {\"inference_measurements_#1\": {\"type\": \"Event\", " + timed(1, "20.0, 21.0") +
      ", \"Execute_#2\": {\"type\": \"Event\", " + timed(2, "19.0, 20.0") + ", " +
      event("folded-Pad:0:0-into-Conv2D:0:1_NeonConvolution2dWorkload_Execute", 3, "10.0, 10.0") + ", " +
      event("Conv2D:0:1:RELU6_NeonActivationWorkload_Execute", 4, "2.5, 2.5") + ", " +
      event("CopyMemGeneric_Execute", 5, "1.0, 1.0") + "}}}}";
  auto profile = ArmNnProfileFromJson(json, layers.value(), "cpuacc", 2);
  ASSERT_TRUE(profile.ok()) << profile.error();
  ASSERT_EQ(profile.value().operators.size(), 3u);
  const OperatorTime& conv = profile.value().operators[0];
  EXPECT_EQ(conv.node, "folded-Pad:0:0-into-Conv2D:0:1");
  EXPECT_EQ(conv.op_type, "Convolution2d");
  EXPECT_EQ(conv.device, "cpuacc");
  EXPECT_EQ(conv.calls, 2);
  EXPECT_EQ(conv.total_ns, 20'000);
  EXPECT_EQ(profile.value().operators[1].op_type, "Activation");  // the longer name wins
  EXPECT_EQ(profile.value().operators[2].op_type, "CopyMemGeneric");
  EXPECT_EQ(profile.value().runs, 2);
  for (const std::string& note : profile.value().notes) EXPECT_EQ(note.find("holds"), std::string::npos) << note;
  EXPECT_FALSE(ArmNnProfileFromJson("{\"ArmNN\": ", layers.value(), "cpuacc", 1).ok());
}

TEST(ArmNnBackend, ListsItsBackendsWithArmNnsAnswer) {
  const BackendInfo info = MakeArmNnBackend()->Info();
  EXPECT_EQ(info.name, "armnn");
  EXPECT_EQ(info.version.rfind("33.", 0), 0u) << info.version;
  ASSERT_EQ(info.devices.size(), 3u);
  EXPECT_EQ(info.devices[0].name, "cpuref");
  EXPECT_TRUE(info.devices[0].available) << info.devices[0].reason;
  EXPECT_TRUE(info.devices[0].capabilities.placement);
  for (size_t i = 1; i < 3; ++i) {
    if (info.devices[i].available) continue;
    EXPECT_NE(info.devices[i].reason.find(i == 1 ? "CpuAcc" : "GpuAcc"), std::string::npos) << info.devices[i].reason;
    EXPECT_NE(info.devices[i].reason.find("CpuRef"), std::string::npos) << info.devices[i].reason;
    auto session = TryLoad(kTorchModels + "/mlp-test.tflite", "armnn:" + info.devices[i].name);
    ASSERT_FALSE(session.ok());
    EXPECT_NE(session.error().find("not available"), std::string::npos) << session.error();
  }
}

TEST(ArmNnBackend, MatchesEagerPyTorchOnTheTinyModels) {
  for (const std::string network : {"mlp-test", "mobilenet-tiny-test"}) {
    auto session = TryLoad(kTorchModels + "/" + network + ".tflite", "armnn:cpuref");
    ASSERT_TRUE(session.ok()) << network << ": " << session.error();
    const Tensor input = Reference(network, "input");
    const Tensor expected = Reference(network, "output");
    ASSERT_TRUE(session.value()->Prepare({input.shape}).ok());
    std::vector<Tensor> outputs;
    const Status ran = session.value()->Run({input}, outputs);
    ASSERT_TRUE(ran.ok()) << ran.message();
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_LT(MaxAbsDiff(outputs[0], expected), 1e-4) << network;
    const auto options = session.value()->effective_options();
    EXPECT_EQ(options.at("fallback"), "none");
    EXPECT_EQ(options.at("threads"), "1");
  }
}

TEST(ArmNnBackend, PlacesEveryLayerOfMobileNetOnCpuRef) {
  auto session = TryLoad(kTorchModels + "/mobilenet-tiny-test.tflite", "armnn:cpuref");
  ASSERT_TRUE(session.ok()) << session.error();
  const Placement p = session.value()->GetPlacement();
  ASSERT_TRUE(p.known);
  EXPECT_EQ(p.devices_used, (std::vector<std::string>{"cpuref"}));
  EXPECT_GT(p.ops_by_device.at("cpuref").at("DepthwiseConvolution2d"), 0);
  ASSERT_TRUE(p.model_nodes.has_value());
  EXPECT_GT(p.original_nodes_by_device.at("cpuref"), 0);
  EXPECT_LE(p.original_nodes_by_device.at("cpuref"), *p.model_nodes);
}

TEST(ArmNnBackend, ProfilesEachWorkloadOfTheMeasuredRuns) {
  auto session = TryLoad(kTorchModels + "/mlp-test.tflite", "armnn:cpuref", /*profile=*/true);
  ASSERT_TRUE(session.ok()) << session.error();
  const Tensor input = Reference("mlp-test", "input");
  ASSERT_TRUE(session.value()->Prepare({input.shape}).ok());
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.value()->Run({input}, outputs).ok());  // warmup: not in the profile
  session.value()->BeginOperatorProfile();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(session.value()->Run({input}, outputs).ok());
  auto profile = session.value()->TakeOperatorProfile();
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_EQ(profile.value().runs, 3);
  int fully_connected = 0;
  for (const OperatorTime& op : profile.value().operators) {
    if (op.op_type != "FullyConnected") continue;
    ++fully_connected;
    EXPECT_EQ(op.calls, 3) << op.node;
    EXPECT_EQ(op.device, "cpuref");
  }
  EXPECT_EQ(fully_connected, 3);
}

TEST(ArmNnBackend, RefusesOptionsItCannotApply) {
  const std::string mlp = kTorchModels + "/mlp-test.tflite";
  auto threads = TryLoad(mlp, "armnn:cpuref?threads=4");
  ASSERT_FALSE(threads.ok());
  EXPECT_NE(threads.error().find("one thread"), std::string::npos) << threads.error();
  EXPECT_TRUE(TryLoad(mlp, "armnn:cpuref?threads=1").ok());
  auto bogus = TryLoad(mlp, "armnn:cpuref?fallback=npu");
  ASSERT_FALSE(bogus.ok());
  EXPECT_NE(bogus.error().find("'npu' is not an Arm NN backend"), std::string::npos) << bogus.error();
  auto self = TryLoad(mlp, "armnn:cpuref?fallback=cpuref");
  ASSERT_FALSE(self.ok());
  EXPECT_NE(self.error().find("listed twice"), std::string::npos) << self.error();
  if (!MakeArmNnBackend()->Info().devices[1].available) {
    // Arm NN would drop a missing backend from Optimize's list without a word; edgebench refuses it.
    auto absent = TryLoad(mlp, "armnn:cpuref?fallback=cpuacc");
    ASSERT_FALSE(absent.ok());
    EXPECT_NE(absent.error().find("no CpuAcc backend here"), std::string::npos) << absent.error();
  }
  EXPECT_FALSE(TryLoad(mlp, "armnn:cpuref?speed=max").ok());
  EXPECT_FALSE(TryLoad(mlp, "armnn:cpu").ok());
}

TEST(ArmNnBackend, SaysArmNnsOwnErrorForBadModels) {
  // The ViT export uses a TFLite operator (GELU) newer than Arm NN 23.08's parser knows.
  auto vit = TryLoad(kTorchModels + "/vit-tiny-test.tflite", "armnn:cpuref");
  ASSERT_FALSE(vit.ok());
  EXPECT_NE(vit.error().find("Arm NN's TFLite parser cannot read"), std::string::npos) << vit.error();
  EXPECT_NE(vit.error().find("Operator code"), std::string::npos) << vit.error();
  EXPECT_NE(vit.error().find("operator #54 is GELU in the file"), std::string::npos) << vit.error();
  const std::string corrupt = ::testing::TempDir() + "/armnn_corrupt.tflite";
  std::ofstream(corrupt) << "not a flatbuffer";
  auto bad = TryLoad(corrupt, "armnn:cpuref");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find(corrupt), std::string::npos) << bad.error();
  EXPECT_FALSE(TryLoad(kTorchModels + "/missing.tflite", "armnn:cpuref").ok());
}

TEST(ArmNnBackend, RefusesAShapeOrInputOtherThanTheNetworks) {
  auto session = TryLoad(kTorchModels + "/mlp-test.tflite", "armnn:cpuref");
  ASSERT_TRUE(session.ok()) << session.error();
  const Status wrong_shape = session.value()->Prepare({{4, 16}});
  ASSERT_FALSE(wrong_shape.ok());
  EXPECT_NE(wrong_shape.message().find("[1x16]"), std::string::npos) << wrong_shape.message();
  ASSERT_TRUE(session.value()->Prepare({{1, 16}}).ok());
  Tensor small = Reference("mlp-test", "input");
  small.data.resize(small.data.size() / 2);
  std::vector<Tensor> outputs;
  const Status ran = session.value()->Run({small}, outputs);
  ASSERT_FALSE(ran.ok());
  EXPECT_NE(ran.message().find("bytes"), std::string::npos) << ran.message();
}

// The full-range BlazeFace (scripts/fixtures) resizes with half-pixel centers, which Arm NN
// 23.08's parser drops: the record says so, which is why `agree` with litert fails on it.
TEST(ArmNnBackend, SaysWhereItsParserDroppedHalfPixelCenters) {
  const std::string model = std::string(EDGEBENCH_FIXTURES_DIR) +
                            "/mediapipe_face_detection_0.4.1657300184/face_detection_full_range.tflite";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is not here (run scripts/fixtures)";
  auto session = TryLoad(model, "armnn:cpuref");
  ASSERT_TRUE(session.ok()) << session.error();
  int dropped = 0;
  for (const std::string& note : session.value()->notes()) {
    if (note.find("HalfPixelCenters 0; the file asks align_corners=0, half_pixel_centers=1") != std::string::npos) {
      ++dropped;
    }
  }
  EXPECT_EQ(dropped, 3);
  // The tiny MobileNet has no Resize: nothing to say.
  auto layers = ParseArmNnDot(kArmNnDot);
  ASSERT_TRUE(layers.ok());
  EXPECT_TRUE(ArmNnResizeOptionNotes(kTorchModels + "/mobilenet-tiny-test.tflite", layers.value()).empty());
}

// GpuAcc runs only where an OpenCL platform answers with a device: the probe Arm NN's devices
// line asks. The build root has PoCL, a platform on the CPU, which is labelled emulated.
TEST(OpenClPlatforms, TheRootsPoclIsADeviceOfTypeCpu) {
  const OpenClProbe probe = ProbeOpenCl();
  if (probe.devices.empty()) GTEST_SKIP() << "no OpenCL device here: " << probe.error;
  EXPECT_TRUE(probe.error.empty()) << probe.error;
  EXPECT_FALSE(probe.devices[0].name.empty());
  if (probe.devices[0].platform.find("Portable Computing Language") != std::string::npos) {
    EXPECT_TRUE(probe.devices[0].cpu);
    EXPECT_EQ(OpenClCpuEmulation(probe), "PoCL, OpenCL on the CPU");
  }
}

// No vendor registered (the ICD loader reads OCL_ICD_VENDORS, here an empty directory): no device,
// and why, which Arm NN's GpuAcc line then gives instead of "yes".
TEST(OpenClPlatforms, NoPlatformSaysWhy) {
  const std::string empty = ::testing::TempDir() + "edgebench_no_icd_" + std::to_string(::getpid());
  std::filesystem::create_directories(empty);
  ::setenv("OCL_ICD_VENDORS", empty.c_str(), 1);
  const OpenClProbe probe = ProbeOpenCl();
  std::filesystem::remove_all(empty);
  if (probe.error.find("could not be opened") != std::string::npos) GTEST_SKIP() << probe.error;
  EXPECT_TRUE(probe.devices.empty());
  EXPECT_NE(probe.error.find("no OpenCL platform answers"), std::string::npos) << probe.error;
  EXPECT_EQ(OpenClCpuEmulation(probe), "");
}

}  // namespace
}  // namespace edgebench
