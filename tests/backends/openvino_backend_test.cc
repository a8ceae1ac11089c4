// The OpenVINO backend on the tiny PyTorch exports kept in tests/models/torch (ONNX and TFLite
// twins of the same weights, with eager PyTorch's output): outputs against eager PyTorch's, the
// options and their read-back, a corrupt model, dynamic shapes, concurrent runs, placement from
// the executed graph and the per-node profile. A binary of its own, as each runtime from a wheel.
#include "backends/openvino/openvino_backend.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <thread>

#include "backends/openvino/openvino_profile.h"
#include "inputs/npy_file.h"
#include "torch_exports.h"

namespace edgebench {

std::unique_ptr<Backend> MakeBackendUnderTest() { return MakeOpenVinoBackend(); }

namespace {

TEST(OpenVinoBackend, ListsItsDevicesWithOpenVinosAnswer) {
  const BackendInfo info = MakeOpenVinoBackend()->Info();
  EXPECT_EQ(info.name, "openvino");
  EXPECT_EQ(info.runtime, "OpenVINO");
  EXPECT_EQ(info.version.rfind("2026.4.1", 0), 0u) << info.version;
  ASSERT_EQ(info.devices.size(), 4u);
  EXPECT_EQ(info.devices[0].name, "cpu");
  EXPECT_TRUE(info.devices[0].available) << info.devices[0].reason;
  EXPECT_TRUE(info.devices[0].capabilities.thread_safe_run);
  EXPECT_EQ(info.devices[3].name, "auto");
  EXPECT_TRUE(info.devices[3].available) << info.devices[3].reason;
  for (const DeviceInfo& device : info.devices) {
    if (!device.available) {
      EXPECT_NE(device.reason.find("OpenVINO found no"), std::string::npos) << device.reason;
    }
  }
}

class EveryNetwork : public testing::TestWithParam<std::string> {};

// Both of OpenVINO's frontends (ONNX, TFLite) read the same weights to eager PyTorch's output.
TEST_P(EveryNetwork, OnnxAndTfliteReproduceEagerPyTorch) {
  const std::string network = GetParam();
  const Tensor input = Reference(network, "input");
  const Tensor expected = Reference(network, "output");
  for (const std::string& file : {network + ".onnx", network + ".tflite"}) {
    auto session = LoadOrDie(kTorchModels + "/" + file, "openvino:cpu?precision=f32");
    ASSERT_NE(session, nullptr);
    ASSERT_EQ(session->signature().inputs.size(), 1u);
    auto outputs = RunOnce(*session, input);
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_LT(MaxAbsDiff(outputs[0], expected), 1e-4) << file;
    EXPECT_EQ(session->effective_options().at("precision"), "f32");
  }
}

INSTANTIATE_TEST_SUITE_P(Kept, EveryNetwork,
                         testing::Values("vit-tiny-test", "mobilenet-tiny-test", "mlp-test"));

TEST(OpenVinoBackend, EffectiveOptionsAreReadBackFromTheCompiledModel) {
  auto latency = LoadOrDie(kTorchModels + "/vit-tiny-test.onnx", "openvino:cpu?threads=1");
  ASSERT_NE(latency, nullptr);
  auto options = latency->effective_options();
  EXPECT_EQ(options["hint"], "latency");
  EXPECT_EQ(options["threads"], "1");
  EXPECT_EQ(options["streams"], "1");
  EXPECT_TRUE(options["precision"] == "f32" || options["precision"] == "bf16" ||
              options["precision"] == "f16") << options["precision"];

  auto throughput = LoadOrDie(kTorchModels + "/vit-tiny-test.onnx", "openvino:cpu?hint=throughput&streams=2");
  ASSERT_NE(throughput, nullptr);
  options = throughput->effective_options();
  EXPECT_EQ(options["hint"], "throughput");
  EXPECT_EQ(options["streams"], "2");
}

TEST(OpenVinoBackend, RejectsUnknownOptionsAndValues) {
  const std::string model = kTorchModels + "/mlp-test.onnx";
  for (const auto& [target, words] :
       {std::pair{"openvino:cpu?hint=fast", "hint=fast"}, std::pair{"openvino:cpu?precision=int4", "precision=int4"},
        std::pair{"openvino:cpu?threads=-1", "threads=-1"}, std::pair{"openvino:cpu?streams=x", "streams=x"},
        std::pair{"openvino:cpu?batch=2", "batch"}, std::pair{"openvino:tpu", "not 'tpu'"}}) {
    auto session = TryLoad(model, target);
    ASSERT_FALSE(session.ok()) << target;
    EXPECT_NE(session.error().find(words), std::string::npos) << session.error();
  }
}

TEST(OpenVinoBackend, ACorruptModelIsAClearError) {
  const std::string path = ::testing::TempDir() + "openvino_truncated.onnx";
  {
    std::ifstream in(kTorchModels + "/mlp-test.onnx", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(bytes.size(), 100u);
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  }
  auto session = TryLoad(path, "openvino:cpu");
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.error().find("openvino: cannot read " + path), std::string::npos) << session.error();
  EXPECT_EQ(session.error().find('\n'), std::string::npos) << "one line: " << session.error();
}

TEST(OpenVinoBackend, ReshapesToTheBatchPrepareAsksFor) {
  const Tensor input = Reference("mlp-test", "input");
  const Tensor expected = Reference("mlp-test", "output");
  auto session = LoadOrDie(kTorchModels + "/mlp-test.onnx", "openvino:cpu?precision=f32");
  ASSERT_NE(session, nullptr);
  for (int64_t batch : {3, 1, 4}) {
    const Tensor inputs = Repeat(input, batch);
    ASSERT_TRUE(session->Prepare({inputs.shape}).ok());
    EXPECT_EQ(session->PreparedInputShapes(), std::vector<std::vector<int64_t>>{inputs.shape});
    std::vector<Tensor> outputs;
    ASSERT_TRUE(session->Run({inputs}, outputs).ok());
    ASSERT_EQ(outputs[0].shape[0], batch);
    EXPECT_LT(MaxAbsDiff(outputs[0], Repeat(expected, batch)), 1e-4) << "batch " << batch;
  }
}

// hint=throughput: several threads run one session at once, each on an infer request of its
// own from one compiled model, and each gets the single-threaded answer.
TEST(OpenVinoBackend, ThroughputRunsFromSeveralThreadsAtOnce) {
  const Tensor input = Reference("vit-tiny-test", "input");
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.onnx", "openvino:cpu?hint=throughput&precision=f32");
  ASSERT_NE(session, nullptr);
  const std::vector<Tensor> alone = RunOnce(*session, input);
  ASSERT_EQ(alone.size(), 1u);
  std::vector<double> worst(4, 0.0);
  std::vector<int> failures(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < worst.size(); ++t) {
    threads.emplace_back([&, t] {
      std::vector<Tensor> outputs;
      for (int i = 0; i < 20; ++i) {
        if (!session->Run({input}, outputs).ok()) {
          ++failures[t];
          continue;
        }
        worst[t] = std::max(worst[t], MaxAbsDiff(outputs[0], alone[0]));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (size_t t = 0; t < worst.size(); ++t) {
    EXPECT_EQ(failures[t], 0) << "thread " << t;
    EXPECT_EQ(worst[t], 0.0) << "thread " << t;
  }
}

TEST(OpenVinoBackend, PlacementComesFromTheExecutedGraph) {
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.onnx", "openvino:cpu");
  ASSERT_NE(session, nullptr);
  EXPECT_TRUE(session->GetPlacement().known) << "the dynamic model is compiled at load too";
  ASSERT_TRUE(session->Prepare({{1, 3, 32, 32}}).ok());
  const Placement placement = session->GetPlacement();
  ASSERT_TRUE(placement.known);
  EXPECT_EQ(placement.devices_used, std::vector<std::string>{"cpu"});
  EXPECT_GT(placement.nodes_by_device.at("cpu"), 0);
  ASSERT_TRUE(placement.model_nodes.has_value());
  // The ViT's linear layers run as OpenVINO's CPU FullyConnected nodes.
  EXPECT_GT(placement.ops_by_device.at("cpu").count("FullyConnected"), 0u);
  EXPECT_GT(placement.original_nodes_by_device.at("cpu"), 0);
  EXPECT_FALSE(placement.ops_by_device.at("cpu").empty());
  bool kernels_noted = false;
  for (const std::string& note : session->notes()) {
    kernels_noted |= note.rfind("OpenVINO kernels (executed nodes): ", 0) == 0;
  }
  EXPECT_TRUE(kernels_noted);
}

TEST(OpenVinoBackend, ProfileSumsTheMeasuredRunsOnly) {
  const Tensor input = Reference("vit-tiny-test", "input");
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.onnx", "openvino:cpu", /*profile=*/true);
  ASSERT_NE(session, nullptr);
  RunOnce(*session, input);  // warmup: before BeginOperatorProfile, not in the profile
  session->BeginOperatorProfile();
  std::vector<Tensor> outputs;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(session->Run({input}, outputs).ok());
  auto profile = session->TakeOperatorProfile();
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_EQ(profile.value().runs, 3);
  ASSERT_FALSE(profile.value().operators.empty());
  EXPECT_GT(TotalOperatorNs(profile.value()), 0);
  for (const OperatorTime& op : profile.value().operators) {
    EXPECT_EQ(op.device, "cpu");
    EXPECT_EQ(op.calls, 3) << op.node;
  }
}

TEST(OpenVinoBackend, UnprofiledSessionsSayTheyHaveNoProfile) {
  auto session = LoadOrDie(kTorchModels + "/mlp-test.onnx", "openvino:cpu");
  ASSERT_NE(session, nullptr);
  EXPECT_FALSE(session->TakeOperatorProfile().ok());
}

TEST(OpenVinoProfileAccumulator, SumsExecutedNodesPerRunAndNotesKernels) {
  OpenVinoProfileAccumulator profile("cpu");
  const std::vector<OpenVinoNodeTime> run = {
      {"fc1", "FullyConnected", "brgemm_avx512_BF16", true, 30},
      {"relu", "Eltwise", "jit_avx512_FP32", true, 10},
      {"reshape", "Reshape", "unknown", false, 0},
  };
  profile.AddRun(run);
  // Under a microsecond, OpenVINO says NOT_RUN: the node still ran, in no measurable time.
  std::vector<OpenVinoNodeTime> fast = run;
  fast[1].executed = false;
  fast[1].real_time_us = 0;
  profile.AddRun(fast);
  profile.AddRun(run);
  const OperatorProfile result = profile.Profile();
  EXPECT_EQ(result.runs, 3);
  ASSERT_EQ(result.operators.size(), 2u) << "reshape never executed";
  EXPECT_EQ(result.operators[0].node, "fc1");
  EXPECT_EQ(result.operators[0].op_type, "FullyConnected");
  EXPECT_EQ(result.operators[0].calls, 3);
  EXPECT_EQ(result.operators[0].total_ns, 90'000);
  EXPECT_EQ(result.operators[1].calls, 3);
  EXPECT_EQ(result.operators[1].total_ns, 20'000);
  ASSERT_FALSE(result.notes.empty());
  EXPECT_EQ(result.notes[0], "time by OpenVINO kernel (exec_type): brgemm_avx512_BF16 81.8%, jit_avx512_FP32 18.2%");
}

}  // namespace
}  // namespace edgebench
