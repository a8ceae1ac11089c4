// The LibTorch backend on the TorchScript exports kept in tests/models/torch (NETWORK.pt, traced
// from the same weights as the .onnx, .tflite and .pte there, with eager PyTorch's output):
// outputs against eager PyTorch's, the signature from the export's description, dynamic batch,
// the thread options and their read-back, bad files, shapes and options, placement counted from
// the forward graph, and the per-operator profile. A binary of its own: linking the backend's
// objects loads LibTorch without the plugin loader's isolation.
#include "backends/libtorch/libtorch_backend.h"

#include <gtest/gtest.h>

#include <ATen/Parallel.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "backends/libtorch/libtorch_module_facts.h"
#include "inputs/npy_file.h"
#include "torch_exports.h"

namespace edgebench {

std::unique_ptr<Backend> MakeBackendUnderTest() { return MakeLibTorchBackend(); }

namespace {

TEST(LibTorchBackend, ListsTheCpuWithLibTorchsVersion) {
  const BackendInfo info = MakeLibTorchBackend()->Info();
  EXPECT_EQ(info.name, "libtorch");
  EXPECT_EQ(info.runtime, "LibTorch");
  EXPECT_EQ(info.version.rfind("2.14", 0), 0u) << info.version;
  EXPECT_EQ(info.artifact_extensions, std::vector<std::string>{".pt"});
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].name, "cpu");
  EXPECT_TRUE(info.devices[0].available);
  EXPECT_TRUE(info.devices[0].capabilities.placement);
}

class EveryTorchScriptNetwork : public testing::TestWithParam<std::string> {};

TEST_P(EveryTorchScriptNetwork, ReproducesEagerPyTorch) {
  const std::string network = GetParam();
  const Tensor input = Reference(network, "input");
  const Tensor expected = Reference(network, "output");
  auto session = LoadOrDie(kTorchModels + "/" + network + ".pt", "libtorch:cpu");
  ASSERT_NE(session, nullptr);
  const Signature& signature = session->signature();
  ASSERT_EQ(signature.inputs.size(), 1u);
  EXPECT_EQ(signature.inputs[0].name, "input_0");
  EXPECT_EQ(signature.inputs[0].dtype, DType::kFloat32);
  ASSERT_EQ(signature.inputs[0].shape.size(), input.shape.size());
  EXPECT_EQ(signature.inputs[0].shape[0].symbol, "batch");
  for (size_t axis = 1; axis < input.shape.size(); ++axis) {
    EXPECT_EQ(signature.inputs[0].shape[axis].size, input.shape[axis]) << "axis " << axis;
  }
  ASSERT_TRUE(session->Prepare({input.shape}).ok());
  std::vector<Tensor> outputs;
  const Status ran = session->Run({input}, outputs);
  ASSERT_TRUE(ran.ok()) << ran.message();
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].name, "output_0");
  EXPECT_LT(MaxAbsDiff(outputs[0], expected), 1e-5) << network;
}

INSTANTIATE_TEST_SUITE_P(Kept, EveryTorchScriptNetwork,
                         testing::Values("vit-tiny-test", "mobilenet-tiny-test", "mlp-test"));

// The ViT was traced at batch 2: its reshapes read the batch from the input at run time.
TEST(LibTorchBackend, RunsTheBatchPrepareAsksFor) {
  const Tensor input = Reference("vit-tiny-test", "input");
  const Tensor expected = Reference("vit-tiny-test", "output");
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.pt", "libtorch:cpu");
  ASSERT_NE(session, nullptr);
  for (int64_t batch : {3, 1, 4}) {
    const Tensor inputs = Repeat(input, batch);
    ASSERT_TRUE(session->Prepare({inputs.shape}).ok());
    EXPECT_EQ(session->PreparedInputShapes(), std::vector<std::vector<int64_t>>{inputs.shape});
    std::vector<Tensor> outputs;
    ASSERT_TRUE(session->Run({inputs}, outputs).ok());
    ASSERT_EQ(outputs[0].shape[0], batch);
    EXPECT_LT(MaxAbsDiff(outputs[0], Repeat(expected, batch)), 1e-5) << "batch " << batch;
  }
}

TEST(LibTorchBackend, AShapeThatDoesNotFitIsRefusedAtPrepare) {
  auto session = LoadOrDie(kTorchModels + "/mobilenet-tiny-test.pt", "libtorch:cpu");
  ASSERT_NE(session, nullptr);
  const Status wrong_size = session->Prepare({{1, 3, 16, 16}});
  ASSERT_FALSE(wrong_size.ok());
  EXPECT_NE(wrong_size.message().find("[1x3x16x16]"), std::string::npos) << wrong_size.message();
  EXPECT_NE(wrong_size.message().find("takes"), std::string::npos) << wrong_size.message();
  const Status wrong_rank = session->Prepare({{1, 3, 32}});
  ASSERT_FALSE(wrong_rank.ok());
  std::vector<Tensor> outputs;
  EXPECT_FALSE(session->Run({Reference("mobilenet-tiny-test", "input")}, outputs).ok())
      << "no successful Prepare yet";
}

TEST(LibTorchBackend, AWrongInputDtypeIsAClearError) {
  auto session = LoadOrDie(kTorchModels + "/mlp-test.pt", "libtorch:cpu");
  ASSERT_NE(session, nullptr);
  Tensor input = Reference("mlp-test", "input");
  ASSERT_TRUE(session->Prepare({input.shape}).ok());
  input.dtype = DType::kInt32;
  std::vector<Tensor> outputs;
  const Status s = session->Run({input}, outputs);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is int32"), std::string::npos) << s.message();
}

// threads is LibTorch's intra-op count, read back; 0 is LibTorch's default for this process,
// whatever an earlier session set.
TEST(LibTorchBackend, ThreadsAreAppliedAndReadBack) {
  auto defaults = LoadOrDie(kTorchModels + "/mlp-test.pt", "libtorch:cpu");
  ASSERT_NE(defaults, nullptr);
  const std::string default_threads = defaults->effective_options().at("threads");
  auto two = LoadOrDie(kTorchModels + "/mlp-test.pt", "libtorch:cpu?threads=2");
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->effective_options().at("threads"), "2");
  EXPECT_EQ(at::get_num_threads(), 2);
  auto again = LoadOrDie(kTorchModels + "/mlp-test.pt", "libtorch:cpu");
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->effective_options().at("threads"), default_threads);
  // A run of the two-thread session puts its count back in force.
  const Tensor input = Reference("mlp-test", "input");
  ASSERT_TRUE(two->Prepare({input.shape}).ok());
  EXPECT_EQ(at::get_num_threads(), 2);
}

// The inter-op pool's size is set once per process: the same value again is accepted, another
// one is refused with LibTorch's reason.
TEST(LibTorchBackend, InterOpThreadsAreSetOncePerProcess) {
  auto first = TryLoad(kTorchModels + "/mlp-test.pt", "libtorch:cpu?interop=3");
  if (!first.ok()) {
    // Another test of this binary set it first: the refusal must say so.
    EXPECT_NE(first.error().find("once per process"), std::string::npos) << first.error();
    GTEST_SKIP() << "the inter-op pool was sized earlier in this process";
  }
  EXPECT_EQ(first.value()->effective_options().at("interop"), "3");
  auto same = TryLoad(kTorchModels + "/mlp-test.pt", "libtorch:cpu?interop=3");
  ASSERT_TRUE(same.ok()) << same.error();
  auto other = TryLoad(kTorchModels + "/mlp-test.pt", "libtorch:cpu?interop=2");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().find("interop=2"), std::string::npos) << other.error();
  EXPECT_NE(other.error().find("already has 3"), std::string::npos) << other.error();
}

TEST(LibTorchBackend, RejectsUnknownOptionsAndValues) {
  const std::string model = kTorchModels + "/mlp-test.pt";
  for (const auto& [target, words] :
       {std::pair{"libtorch:cpu?threads=-1", "threads"}, std::pair{"libtorch:cpu?interop=x", "interop"},
        std::pair{"libtorch:cpu?fuse=on", "fuse"}, std::pair{"libtorch:cuda", "not 'cuda'"}}) {
    auto session = TryLoad(model, target);
    ASSERT_FALSE(session.ok()) << target;
    EXPECT_NE(session.error().find(words), std::string::npos) << session.error();
  }
}

TEST(LibTorchBackend, ATruncatedModuleIsAClearError) {
  const std::string path = WriteTruncatedCopy(kTorchModels + "/mlp-test.pt", "libtorch_truncated.pt", 0.5);
  auto session = TryLoad(path, "libtorch:cpu");
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.error().find("cannot load " + path + " as a TorchScript module"), std::string::npos)
      << session.error();
  EXPECT_EQ(session.error().find('\n'), std::string::npos) << "one line: " << session.error();
  EXPECT_EQ(session.error().find("frame #"), std::string::npos) << "no backtrace: " << session.error();
  EXPECT_FALSE(TryLoad(kTorchModels + "/no-such-model.pt", "libtorch:cpu").ok());
  EXPECT_FALSE(TryLoad(kTorchModels + "/mlp-test.onnx", "libtorch:cpu").ok());
}

TEST(LibTorchBackend, TheExportDescriptionIsReadAndChecked) {
  auto signature = SignatureFromTorchScriptDescription(
      R"({"inputs": [{"name": "x", "dtype": "int64", "shape": [2, 7], "dynamic_dims": {"0": {"min": 1, "max": 4}}}],
          "outputs": [{"name": "y", "dtype": "float32", "shape": [2, 3]}]})",
      "m.pt");
  ASSERT_TRUE(signature.ok()) << signature.error();
  EXPECT_EQ(signature.value().inputs[0].dtype, DType::kInt64);
  EXPECT_EQ(signature.value().inputs[0].shape[0].symbol, "batch");
  EXPECT_EQ(signature.value().inputs[0].shape[1].size, 7);
  EXPECT_EQ(signature.value().outputs[0].shape[0].size, 2);
  auto bad_dtype = SignatureFromTorchScriptDescription(
      R"({"inputs": [{"name": "x", "dtype": "complex64", "shape": [1]}], "outputs": []})", "m.pt");
  ASSERT_FALSE(bad_dtype.ok());
  EXPECT_NE(bad_dtype.error().find("complex64"), std::string::npos) << bad_dtype.error();
  EXPECT_FALSE(SignatureFromTorchScriptDescription("{\"inputs\": 3}", "m.pt").ok());
  EXPECT_FALSE(SignatureFromTorchScriptDescription("not json", "m.pt").ok());
}

TEST(LibTorchBackend, PlacementCountsTheForwardGraphsOperators) {
  auto session = LoadOrDie(kTorchModels + "/mobilenet-tiny-test.pt", "libtorch:cpu");
  ASSERT_NE(session, nullptr);
  const Placement placement = session->GetPlacement();
  ASSERT_TRUE(placement.known);
  EXPECT_EQ(placement.devices_used, std::vector<std::string>{"cpu"});
  // The tiny MobileNet has 13 convolutions, each with its batch norm, and one linear head.
  const auto& ops = placement.ops_by_device.at("cpu");
  ASSERT_TRUE(ops.count("aten::_convolution")) << OpTypeCountsText(ops);
  EXPECT_EQ(ops.at("aten::_convolution"), 13) << OpTypeCountsText(ops);
  EXPECT_EQ(ops.at("aten::batch_norm"), 13) << OpTypeCountsText(ops);
  int sum = 0;
  for (const auto& [op, count] : ops) sum += count;
  EXPECT_EQ(placement.nodes_by_device.at("cpu"), sum);
  EXPECT_EQ(placement.model_nodes, sum);
}

TEST(LibTorchBackend, ProfileTimesTopLevelOperatorsOfMeasuredRunsOnly) {
  const Tensor input = Reference("vit-tiny-test", "input");
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.pt", "libtorch:cpu", /*profile=*/true);
  ASSERT_NE(session, nullptr);
  ASSERT_TRUE(session->Prepare({input.shape}).ok());
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session->Run({input}, outputs).ok());  // warmup: before BeginOperatorProfile
  session->BeginOperatorProfile();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(session->Run({input}, outputs).ok());
  auto profile = session->TakeOperatorProfile();
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_EQ(profile.value().runs, 3);
  ASSERT_FALSE(profile.value().operators.empty());
  EXPECT_GT(TotalOperatorNs(profile.value()), 0);
  bool saw_linear = false;
  for (const OperatorTime& op : profile.value().operators) {
    EXPECT_EQ(op.device, "cpu");
    EXPECT_EQ(op.calls, 3) << op.node << " " << op.op_type;
    saw_linear |= op.op_type == "aten::linear";
    EXPECT_NE(op.op_type, "aten::addmm") << "nested in aten::linear, not a top-level operator";
  }
  EXPECT_TRUE(saw_linear);
  // An unprofiled session says it has no profile.
  auto plain = LoadOrDie(kTorchModels + "/mlp-test.pt", "libtorch:cpu");
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(plain->TakeOperatorProfile().ok());
}

}  // namespace
}  // namespace edgebench
