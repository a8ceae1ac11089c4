// The OpenCV DNN backend on the tiny PyTorch exports kept in tests/models/torch: outputs against
// eager PyTorch's, other batch sizes, the options and their read-back (threads through the
// process-wide cv::setNumThreads), bad input (corrupt file, wrong shape and type, bad options,
// a model OpenCV's importer refuses), devices as cv::dnn::getAvailableTargets answers, placement
// and the per-layer profile. A binary of its own, linking the backend's objects.
#include "backends/opencv/opencv_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <fstream>
#include <iterator>

#include <opencv2/core/utility.hpp>
#include <opencv2/dnn.hpp>

#include "backends/opencv/opencv_profile.h"
#include "inputs/npy_file.h"
#include "torch_exports.h"

namespace edgebench {

std::unique_ptr<Backend> MakeBackendUnderTest() { return MakeOpenCvBackend(); }

namespace {

const std::string kMobileNet = kTorchModels + "/mobilenet-tiny-test.onnx";

TEST(OpenCvBackend, ListsItsDevicesAsOpenCvAnswers) {
  const BackendInfo info = MakeOpenCvBackend()->Info();
  EXPECT_EQ(info.name, "opencv");
  EXPECT_EQ(info.runtime, "OpenCV DNN");
  EXPECT_EQ(info.version, CV_VERSION);
  ASSERT_FALSE(info.artifact_extensions.empty());
  EXPECT_EQ(info.artifact_extensions.front(), ".onnx");
  ASSERT_EQ(info.devices.size(), 3u);
  const std::pair<cv::dnn::Backend, cv::dnn::Target> expected[] = {
      {cv::dnn::DNN_BACKEND_OPENCV, cv::dnn::DNN_TARGET_CPU},
      {cv::dnn::DNN_BACKEND_OPENCV, cv::dnn::DNN_TARGET_OPENCL},
      {cv::dnn::DNN_BACKEND_VKCOM, cv::dnn::DNN_TARGET_VULKAN}};
  const char* names[] = {"cpu", "opencl", "vulkan"};
  for (size_t i = 0; i < 3; ++i) {
    const DeviceInfo& device = info.devices[i];
    EXPECT_EQ(device.name, names[i]);
    const auto targets = cv::dnn::getAvailableTargets(expected[i].first);
    const bool listed = std::find(targets.begin(), targets.end(), expected[i].second) != targets.end();
    EXPECT_EQ(device.available, listed) << device.name;
    if (!device.available) {
      EXPECT_NE(device.reason.find("getAvailableTargets"), std::string::npos) << device.reason;
    }
    EXPECT_FALSE(device.capabilities.thread_safe_run);
    EXPECT_TRUE(device.capabilities.dynamic_shapes);
    EXPECT_TRUE(device.capabilities.placement);
  }
  EXPECT_TRUE(info.devices[0].available) << info.devices[0].reason;
}

TEST(OpenCvBackend, MobileNetReproducesEagerPyTorch) {
  auto session = LoadOrDie(kMobileNet, "opencv:cpu");
  ASSERT_TRUE(session);
  ASSERT_EQ(session->signature().inputs.size(), 1u);
  EXPECT_EQ(session->signature().inputs[0].name, "input_0");
  EXPECT_EQ(session->signature().inputs[0].dtype, DType::kFloat32);
  const Tensor input = Reference("mobilenet-tiny-test", "input");
  const Tensor expected = Reference("mobilenet-tiny-test", "output");
  const auto outputs = RunOnce(*session, input);
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].name, session->signature().outputs[0].name);
  EXPECT_LT(MaxAbsDiff(outputs[0], expected), 1e-4);
}

// OpenCL on PoCL (scripts/devroot.packages): OpenCV takes a CPU's OpenCL device only when told
// to, before its OpenCL runtime starts (this test's process: ctest runs each test alone). The
// net reproduces PyTorch there, and the session says the device is the CPU running OpenCL.
TEST(OpenCvBackend, OpenClOnACpuPlatformRunsAndIsLabelledEmulated) {
  ::setenv("OPENCV_OPENCL_DEVICE", ":CPU:", 1);
  ::setenv("OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES", "1", 1);
  const BackendInfo info = MakeOpenCvBackend()->Info();
  if (!info.devices[1].available) GTEST_SKIP() << "no OpenCL platform on the CPU here: " << info.devices[1].reason;
  EXPECT_NE(info.devices[1].description.find("(emulated: "), std::string::npos) << info.devices[1].description;
  auto session = LoadOrDie(kMobileNet, "opencv:opencl");
  ASSERT_TRUE(session);
  const auto outputs = RunOnce(*session, Reference("mobilenet-tiny-test", "input"));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_LT(MaxAbsDiff(outputs[0], Reference("mobilenet-tiny-test", "output")), 1e-3);
  EXPECT_FALSE(session->effective_options().at("opencl_device").empty());
  const auto notes = session->notes();
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(),
                          [](const std::string& n) { return n.rfind("emulated: ", 0) == 0; }))
      << ::testing::PrintToString(notes);
}

TEST(OpenCvBackend, RunsTheBatchPrepareAsksFor) {
  auto session = LoadOrDie(kMobileNet, "opencv:cpu");
  ASSERT_TRUE(session);
  const Tensor input = Reference("mobilenet-tiny-test", "input");
  const Tensor expected = Reference("mobilenet-tiny-test", "output");
  for (int64_t batch : {3, 1, 2}) {
    const auto outputs = RunOnce(*session, Repeat(input, batch));
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_LT(MaxAbsDiff(outputs[0], Repeat(expected, batch)), 1e-4) << "batch " << batch;
  }
}

TEST(OpenCvBackend, OptionsReachOpenCvAndAreReadBack) {
  auto session = LoadOrDie(kMobileNet, "opencv:cpu?threads=1&fusion=off&winograd=off");
  ASSERT_TRUE(session);
  auto options = session->effective_options();
  EXPECT_EQ(options["backend"], "opencv");
  EXPECT_EQ(options["target"], "cpu");
  EXPECT_EQ(options["threads"], "1");
  EXPECT_EQ(options["fusion"], "off");
  EXPECT_EQ(options["winograd"], "off");
  EXPECT_EQ(cv::getNumThreads(), 1);
  // Without fusion no layer is folded into another: the placement counts every layer as run.
  auto fused = LoadOrDie(kMobileNet, "opencv:cpu");
  ASSERT_TRUE(fused);
  EXPECT_GT(session->GetPlacement().nodes_by_device["cpu"], fused->GetPlacement().nodes_by_device["cpu"]);
  // Unfused, the outputs are still eager PyTorch's.
  const auto outputs = RunOnce(*session, Reference("mobilenet-tiny-test", "input"));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_LT(MaxAbsDiff(outputs[0], Reference("mobilenet-tiny-test", "output")), 1e-4);
}

TEST(OpenCvBackend, ThreadsAreSetAgainWhereAnotherSessionChangedThem) {
  auto one = LoadOrDie(kMobileNet, "opencv:cpu?threads=1");
  auto two = LoadOrDie(kMobileNet, "opencv:cpu?threads=2");
  ASSERT_TRUE(one && two);
  EXPECT_EQ(cv::getNumThreads(), 2);  // process-wide: the last load's
  RunOnce(*one, Reference("mobilenet-tiny-test", "input"));
  EXPECT_EQ(cv::getNumThreads(), 1);
  RunOnce(*two, Reference("mobilenet-tiny-test", "input"));
  EXPECT_EQ(cv::getNumThreads(), 2);
  bool noted = false;
  for (const std::string& note : one->notes()) noted = noted || note.find("process-wide") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(OpenCvBackend, RejectsBadOptionsWithClearErrors) {
  auto bad_value = TryLoad(kMobileNet, "opencv:cpu?threads=many");
  ASSERT_FALSE(bad_value.ok());
  EXPECT_NE(bad_value.error().find("threads"), std::string::npos) << bad_value.error();
  auto unknown = TryLoad(kMobileNet, "opencv:cpu?streams=2");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("streams"), std::string::npos) << unknown.error();
  auto other_target = TryLoad(kMobileNet, "opencv:cpu?target=opencl");
  ASSERT_FALSE(other_target.ok());
  EXPECT_NE(other_target.error().find("target"), std::string::npos) << other_target.error();
  if (!cv::dnn::getAvailableTargets(cv::dnn::DNN_BACKEND_VKCOM).empty()) GTEST_SKIP() << "this OpenCV has Vulkan";
  auto unavailable = TryLoad(kMobileNet, "opencv:cpu?backend=vkcom");
  ASSERT_FALSE(unavailable.ok());
  EXPECT_NE(unavailable.error().find("getAvailableBackends"), std::string::npos) << unavailable.error();
  auto vulkan = TryLoad(kMobileNet, "opencv:vulkan");
  ASSERT_FALSE(vulkan.ok());
  EXPECT_NE(vulkan.error().find("not available"), std::string::npos) << vulkan.error();
}

TEST(OpenCvBackend, ACorruptModelIsAClearError) {
  const std::string path = testing::TempDir() + "/opencv-corrupt.onnx";
  {
    std::ifstream in(kMobileNet, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() / 3);
  }
  auto session = TryLoad(path, "opencv:cpu");
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.error().find(path), std::string::npos) << session.error();
  EXPECT_NE(session.error().find("readNet"), std::string::npos) << session.error();
}

TEST(OpenCvBackend, WrongShapesAndTypesAreClearErrors) {
  auto session = LoadOrDie(kMobileNet, "opencv:cpu");
  ASSERT_TRUE(session);
  const Status shape = session->Prepare({{1, 3, 40, 32}});
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.message().find("input_0"), std::string::npos) << shape.message();
  const Status rank = session->Prepare({{3, 32, 32}});
  EXPECT_FALSE(rank.ok());
  ASSERT_TRUE(session->Prepare({{1, 3, 32, 32}}).ok());
  Tensor wrong_type = Reference("mobilenet-tiny-test", "input");
  wrong_type.dtype = DType::kInt32;
  std::vector<Tensor> outputs;
  const Status run = session->Run({wrong_type}, outputs);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.message().find("int32"), std::string::npos) << run.message();
}

// OpenCV's importer either runs a network or refuses it with its own error, which the load
// returns with the file's name: the kept ViT (refused by 4.10's ONNX importer at its Concat of
// the class token) and the TFLite exports (refused where OpenCV has no FlatBuffers).
class OpenCvEveryExport : public testing::TestWithParam<std::string> {};

TEST_P(OpenCvEveryExport, RunsLikeEagerPyTorchOrSaysWhyNot) {
  const std::string file = kTorchModels + "/" + GetParam();
  const std::string network = GetParam().substr(0, GetParam().find('.'));
  auto session = TryLoad(file, "opencv:cpu");
  if (!session.ok()) {
    EXPECT_NE(session.error().find(file), std::string::npos) << session.error();
    EXPECT_NE(session.error().find("OpenCV("), std::string::npos) << "not OpenCV's own error: " << session.error();
    const bool tflite = GetParam().ends_with(".tflite");
    EXPECT_NE(session.error().find(tflite ? "FlatBuffers" : "importer does not support"), std::string::npos)
        << session.error();
    return;
  }
  const auto outputs = RunOnce(*session.value(), Reference(network, "input"));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_LT(MaxAbsDiff(outputs[0], Reference(network, "output")), 1e-4) << file;
}

INSTANTIATE_TEST_SUITE_P(Kept, OpenCvEveryExport,
                         testing::Values("mlp-test.onnx", "mobilenet-tiny-test.onnx", "vit-tiny-test.onnx",
                                         "mobilenet-tiny-test.tflite", "vit-tiny-test.tflite"));

TEST(OpenCvBackend, PlacementNamesTheLayersAndWhatWasFused) {
  auto session = LoadOrDie(kMobileNet, "opencv:cpu");
  ASSERT_TRUE(session);
  const Placement placement = session->GetPlacement();
  EXPECT_TRUE(placement.known);
  EXPECT_EQ(placement.devices_used, std::vector<std::string>{"cpu"});
  EXPECT_GT(placement.ops_by_device.at("cpu").at("Convolution"), 0);
  ASSERT_TRUE(placement.model_nodes.has_value());
  EXPECT_GT(*placement.model_nodes, 0);
  // ReLU6 follows each convolution but one in MobileNetV2: OpenCV folds them into the convolutions.
  EXPECT_EQ(placement.ops_by_device.at("cpu").count("ReLU6"), 0u);
  bool fused_note = false;
  for (const std::string& note : session->notes()) fused_note = fused_note || note.find("ReLU6") != std::string::npos;
  EXPECT_TRUE(fused_note);
}

TEST(OpenCvBackend, ProfileSumsGetPerfProfileOverMeasuredRuns) {
  auto session = LoadOrDie(kMobileNet, "opencv:cpu", /*profile=*/true);
  ASSERT_TRUE(session);
  const Tensor input = Reference("mobilenet-tiny-test", "input");
  RunOnce(*session, input);  // before the measured phase: not in the profile
  session->BeginOperatorProfile();
  for (int i = 0; i < 3; ++i) RunOnce(*session, input);
  auto profile = session->TakeOperatorProfile();
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_EQ(profile.value().runs, 3);
  ASSERT_FALSE(profile.value().operators.empty());
  bool convolution = false;
  for (const OperatorTime& op : profile.value().operators) {
    EXPECT_EQ(op.device, "cpu");
    EXPECT_EQ(op.calls, 3);
    EXPECT_GT(op.total_ns, 0) << op.node;
    EXPECT_NE(op.op_type, "ReLU6");  // fused: 0 ticks, counted in a note
    convolution = convolution || op.op_type == "Convolution";
  }
  EXPECT_TRUE(convolution);
}

TEST(OpenCvProfileAccumulator, SumsTicksAndSetsFusedLayersApart) {
  OpenCvProfileAccumulator accumulator(
      {{"conv", "Convolution", "cpu"}, {"relu", "ReLU6", "cpu"}, {"fc", "Gemm", "cpu"}}, 1e6);  // 1 tick = 1 us
  EXPECT_TRUE(accumulator.AddRun({10, 0, 2}));
  EXPECT_TRUE(accumulator.AddRun({30, 0, 4}));
  EXPECT_FALSE(accumulator.AddRun({1, 2}));  // another layer count: left out
  const OperatorProfile profile = accumulator.Profile();
  EXPECT_EQ(profile.runs, 2);
  ASSERT_EQ(profile.operators.size(), 2u);
  EXPECT_EQ(profile.operators[0].node, "conv");
  EXPECT_EQ(profile.operators[0].total_ns, 40'000);
  EXPECT_EQ(profile.operators[0].calls, 2);
  EXPECT_EQ(profile.operators[1].op_type, "Gemm");
  EXPECT_EQ(profile.operators[1].total_ns, 6'000);
  std::string notes;
  for (const std::string& note : profile.notes) notes += note + "\n";
  EXPECT_NE(notes.find("ReLU6"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 runs were left out"), std::string::npos) << notes;
}

}  // namespace
}  // namespace edgebench
