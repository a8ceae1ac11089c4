// The ExecuTorch backend on the tiny PyTorch exports kept in tests/models/torch (made by
// scripts/models/export-torch-models): outputs against eager PyTorch's, dynamic batch within and
// beyond the exported bounds, threads, a truncated .pte, placement and fallback=fail.
#include "backends/executorch/executorch_backend.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "inputs/npy_file.h"
#include "torch_exports.h"

namespace edgebench {

std::unique_ptr<Backend> MakeBackendUnderTest() { return MakeExecuTorchBackend(); }

namespace {

TEST(ExecuTorchBackend, ListsCpuAndXnnpack) {
  const BackendInfo info = MakeExecuTorchBackend()->Info();
  EXPECT_EQ(info.name, "executorch");
  EXPECT_EQ(info.artifact_extensions, std::vector<std::string>{".pte"});
  ASSERT_EQ(info.devices.size(), 2u);
  EXPECT_TRUE(info.devices[0].available);
  EXPECT_TRUE(info.devices[1].available) << info.devices[1].reason;
}

class EveryNetwork : public testing::TestWithParam<std::string> {};

TEST_P(EveryNetwork, KernelsAndXnnpackReproduceEagerPyTorch) {
  const std::string network = GetParam();
  const Tensor input = Reference(network, "input");
  const Tensor expected = Reference(network, "output");
  for (const auto& [file, target] : {std::pair{network + ".cpu.pte", "executorch:cpu"},
                                     std::pair{network + ".xnnpack.pte", "executorch:xnnpack"}}) {
    auto session = LoadOrDie(kTorchModels + "/" + file, target);
    ASSERT_NE(session, nullptr);
    ASSERT_EQ(session->signature().inputs.size(), 1u);
    EXPECT_EQ(session->signature().inputs[0].name, "input_0") << "unnamed inputs are numbered";
    auto outputs = RunOnce(*session, input);
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_LT(MaxAbsDiff(outputs[0], expected), 1e-4) << file << " on " << target;
  }
}

TEST_P(EveryNetwork, EightBitStaysCloseToFp32) {
  const std::string network = GetParam();
  const Tensor input = Reference(network, "input");
  const Tensor expected = Reference(network, "output");
  auto session = LoadOrDie(kTorchModels + "/" + network + ".xnnpack-q8.pte", "executorch:xnnpack");
  ASSERT_NE(session, nullptr);
  auto outputs = RunOnce(*session, input);
  ASSERT_EQ(outputs.size(), 1u);
  ASSERT_EQ(outputs[0].shape, expected.shape);
  // Cosine similarity: 8-bit drifts, but not into another function.
  double dot = 0, na = 0, nb = 0;
  for (int64_t i = 0; i < expected.element_count(); ++i) {
    dot += outputs[0].as<float>()[i] * expected.as<float>()[i];
    na += outputs[0].as<float>()[i] * outputs[0].as<float>()[i];
    nb += expected.as<float>()[i] * expected.as<float>()[i];
  }
  EXPECT_GT(dot / std::sqrt(na * nb), 0.9) << network;
}

INSTANTIATE_TEST_SUITE_P(Kept, EveryNetwork,
                         testing::Values("vit-tiny-test", "mobilenet-tiny-test", "mlp-test"));

TEST(ExecuTorchBackend, DynamicBatchWithinBoundsRuns) {
  const Tensor input = Reference("vit-tiny-test", "input");
  const Tensor expected = Reference("vit-tiny-test", "output");
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.xnnpack.pte", "executorch:xnnpack");
  ASSERT_NE(session, nullptr);
  EXPECT_FALSE(session->signature().inputs[0].shape[0].fixed()) << "the manifest marks batch dynamic";
  auto outputs = RunOnce(*session, Repeat(input, 3));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{3, 10}));
  EXPECT_EQ(session->PreparedInputShapes()[0][0], 3);
  EXPECT_LT(MaxAbsDiff(outputs[0], Repeat(expected, 3)), 1e-4);
  // And back down to batch 1 in the same session.
  outputs = RunOnce(*session, input);
  EXPECT_LT(MaxAbsDiff(outputs[0], expected), 1e-4);
}

TEST(ExecuTorchBackend, BatchBeyondTheExportedBoundIsAnErrorWithExecuTorchsReason) {
  const Tensor input = Reference("vit-tiny-test", "input");
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.cpu.pte", "executorch:cpu");
  ASSERT_NE(session, nullptr);
  Status s = session->Prepare({Repeat(input, 5).shape});  // exported with batch <= 4
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("does not fit"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("ExecuTorch said:"), std::string::npos) << s.message();
}

TEST(ExecuTorchBackend, ThreadsOptionRunsAndIsRecorded) {
  const Tensor input = Reference("mobilenet-tiny-test", "input");
  const Tensor expected = Reference("mobilenet-tiny-test", "output");
  auto session = LoadOrDie(kTorchModels + "/mobilenet-tiny-test.xnnpack.pte", "executorch:xnnpack?threads=2");
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->effective_options().at("threads"), "2");
  EXPECT_LT(MaxAbsDiff(RunOnce(*session, input)[0], expected), 1e-4);
  auto one = LoadOrDie(kTorchModels + "/mobilenet-tiny-test.xnnpack.pte", "executorch:xnnpack?threads=1");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->effective_options().at("threads"), "1");
  EXPECT_LT(MaxAbsDiff(RunOnce(*one, input)[0], expected), 1e-4);
}

TEST(ExecuTorchBackend, UnknownOptionIsRefused) {
  auto session = TryLoad(kTorchModels + "/mlp-test.cpu.pte", "executorch:cpu?thread=2");
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.error().find("thread"), std::string::npos) << session.error();
}

TEST(ExecuTorchBackend, TruncatedPteIsAClearError) {
  const auto dir = std::filesystem::temp_directory_path() / "edgebench_executorch_test";
  std::filesystem::create_directories(dir);
  const std::string truncated = (dir / "truncated.pte").string();
  {
    std::ifstream in(kTorchModels + "/vit-tiny-test.cpu.pte", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(truncated, std::ios::binary).write(bytes.data(), bytes.size() / 2);
  }
  auto session = TryLoad(truncated, "executorch:cpu");
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.error().find(truncated), std::string::npos) << session.error();
  EXPECT_NE(session.error().find("not a loadable ExecuTorch program"), std::string::npos)
      << session.error();
}

TEST(ExecuTorchBackend, PlacementCountsBlocksAndTheManifestsNodes) {
  auto session = LoadOrDie(kTorchModels + "/vit-tiny-test.xnnpack.pte", "executorch:xnnpack");
  ASSERT_NE(session, nullptr);
  const Placement p = session->GetPlacement();
  EXPECT_TRUE(p.known);
  EXPECT_GT(p.partitions_by_device.at("xnnpack"), 0);
  ASSERT_TRUE(p.model_nodes.has_value()) << "the manifest beside the .pte has per-node counts";
  EXPECT_GT(p.original_nodes_by_device.at("xnnpack"), 0);
  EXPECT_GT(p.original_nodes_by_device.at("cpu"), 0) << "layer norms stay on the kernels";
  EXPECT_EQ(*p.model_nodes, p.original_nodes_by_device.at("xnnpack") + p.original_nodes_by_device.at("cpu"));
}

TEST(ExecuTorchBackend, TargetsRefuseTheOtherKindOfPte) {
  auto on_cpu = TryLoad(kTorchModels + "/mlp-test.xnnpack.pte", "executorch:cpu");
  ASSERT_FALSE(on_cpu.ok());
  EXPECT_NE(on_cpu.error().find("XnnpackBackend"), std::string::npos) << on_cpu.error();
  auto on_xnnpack = TryLoad(kTorchModels + "/mlp-test.cpu.pte", "executorch:xnnpack");
  ASSERT_FALSE(on_xnnpack.ok());
  EXPECT_NE(on_xnnpack.error().find("no block delegated"), std::string::npos) << on_xnnpack.error();
}

TEST(ExecuTorchBackend, FallbackFailNamesWhatStaysOnTheKernels) {
  auto session = TryLoad(kTorchModels + "/vit-tiny-test.xnnpack.pte", "executorch:xnnpack?fallback=fail");
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.error().find("fallback=fail"), std::string::npos) << session.error();
  EXPECT_NE(session.error().find("op types:"), std::string::npos) << session.error();
}

}  // namespace
}  // namespace edgebench
