// ONNX Runtime backend against small models the tests build.
#include "backends/ort/ort_backend.h"

#include <gtest/gtest.h>

#include <cmath>

#include "../test_util.h"
#include "load/input_generator.h"

namespace edgebench {
namespace {

using testing::TestModel;

std::unique_ptr<Session> Load(Backend& backend, const std::string& model, const std::string& target) {
  auto session = backend.Load({TestModel(model)}, ParseTarget(target).take());
  EXPECT_TRUE(session.ok()) << session.error();
  return session.ok() ? session.take() : nullptr;
}

std::vector<Tensor> RunOnce(Session& s, const std::vector<std::vector<int64_t>>& shapes) {
  EXPECT_TRUE(s.Prepare(shapes).ok());
  auto inputs = GenerateInputs(s.signature(), shapes, 7).take();
  std::vector<Tensor> outputs;
  const Status status = s.Run(inputs, outputs);
  EXPECT_TRUE(status.ok()) << status.message();
  return outputs;
}

TEST(OrtBackend, InfoListsTheThreeProviders) {
  auto backend = MakeOrtBackend();
  const BackendInfo info = backend->Info();
  EXPECT_EQ(info.name, "ort");
  EXPECT_FALSE(info.version.empty());
  ASSERT_EQ(info.devices.size(), 3u);
  EXPECT_EQ(info.devices[0].name, "cpu");
  EXPECT_TRUE(info.devices[0].available);
}

TEST(OrtBackend, ReadsTheSignatureAndRuns) {
  auto backend = MakeOrtBackend();
  auto s = Load(*backend, "vit_micro.onnx", "ort:cpu?threads=1");
  ASSERT_TRUE(s);
  ASSERT_EQ(s->signature().inputs.size(), 1u);
  EXPECT_EQ(s->signature().inputs[0].name, "pixel_values");
  EXPECT_EQ(s->signature().inputs[0].dtype, DType::kFloat32);
  EXPECT_EQ(ShapeToString(s->signature().inputs[0].shape), "[1x3x32x32]");
  auto out = RunOnce(*s, {{1, 3, 32, 32}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "logits");
  EXPECT_EQ(out[0].shape, (std::vector<int64_t>{1, 10}));
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(std::isfinite(out[0].as<float>()[i]));
  EXPECT_EQ(s->effective_options().at("threads"), "1");
  EXPECT_EQ(s->effective_options().at("opt"), "all");
}

TEST(OrtBackend, ReportsWhichProvidersRanTheNodes) {
  auto backend = MakeOrtBackend();
  auto cpu = Load(*backend, "vit_micro.onnx", "ort:cpu");
  ASSERT_TRUE(cpu);
  const Placement p = cpu->GetPlacement();
  ASSERT_TRUE(p.known);
  EXPECT_EQ(p.nodes_by_device.size(), 1u);
  EXPECT_GT(p.nodes_by_device.at("cpu"), 10);
  auto xnn = Load(*backend, "vit_micro.onnx", "ort:xnnpack");
  ASSERT_TRUE(xnn);
  const Placement px = xnn->GetPlacement();
  ASSERT_TRUE(px.known);
  EXPECT_GT(px.nodes_by_device.at("xnnpack"), 0);  // MatMul/Softmax/Conv go to XNNPACK
}

TEST(OrtBackend, CpuAndXnnpackAgree) {
  auto backend = MakeOrtBackend();
  auto cpu = Load(*backend, "vit_micro.onnx", "ort:cpu");
  auto xnn = Load(*backend, "vit_micro.onnx", "ort:xnnpack");
  ASSERT_TRUE(cpu && xnn);
  auto a = RunOnce(*cpu, {{1, 3, 32, 32}});
  auto b = RunOnce(*xnn, {{1, 3, 32, 32}});
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(a[0].as<float>()[i], b[0].as<float>()[i], 1e-4);
}

TEST(OrtBackend, SymbolicBatchIsBoundAtPrepare) {
  auto backend = MakeOrtBackend();
  auto s = Load(*backend, "mlp_dynamic.onnx", "ort:cpu");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->signature().inputs[0].shape[0].symbol, "batch");
  auto unbound = ResolveInputShapes(s->signature(), {});
  ASSERT_FALSE(unbound.ok());
  EXPECT_NE(unbound.error().find("'batch'"), std::string::npos);
  auto shapes = ResolveInputShapes(s->signature(), {{"batch", 3}}).take();
  auto out = RunOnce(*s, shapes);
  EXPECT_EQ(out[0].shape, (std::vector<int64_t>{3, 4}));
  for (int i = 0; i < 12; ++i) EXPECT_GE(out[0].as<float>()[i], 0.0f);  // Relu
}

TEST(OrtBackend, DynamicBatchViTMatchesTheStaticOnePerSample) {
  auto backend = MakeOrtBackend();
  auto dynamic = Load(*backend, "vit_micro_dynamic.onnx", "ort:cpu?threads=1");
  auto fixed = Load(*backend, "vit_micro.onnx", "ort:cpu?threads=1");
  ASSERT_TRUE(dynamic && fixed);
  EXPECT_EQ(dynamic->signature().inputs[0].shape[0].symbol, "batch");
  auto batch2 = RunOnce(*dynamic, {{2, 3, 32, 32}});
  EXPECT_EQ(batch2[0].shape, (std::vector<int64_t>{2, 10}));
  // The first sample of the seeded batch is the same bytes as the static model's input.
  auto single = RunOnce(*fixed, {{1, 3, 32, 32}});
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(batch2[0].as<float>()[i], single[0].as<float>()[i], 1e-4);
}

TEST(OrtBackend, UnnamedDynamicAxisIsReportedAsSuch) {
  auto backend = MakeOrtBackend();
  auto s = Load(*backend, "two_unnamed.onnx", "ort:cpu");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->signature().inputs[0].shape[0].symbol, "?");
  auto shapes = ResolveInputShapes(s->signature(), {{"x.0", 2}});
  ASSERT_TRUE(shapes.ok()) << shapes.error();
}

TEST(OrtBackend, CorruptAndMissingModelsGiveClearErrors) {
  auto backend = MakeOrtBackend();
  auto corrupt = backend->Load({TestModel("truncated.onnx")}, ParseTarget("ort:cpu").take());
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.error().find("truncated.onnx"), std::string::npos) << corrupt.error();
  EXPECT_NE(corrupt.error().find("could not create a session"), std::string::npos);
  auto missing = backend->Load({"/nonexistent/model.onnx"}, ParseTarget("ort:cpu").take());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("does not exist"), std::string::npos);
}

TEST(OrtBackend, BadOptionsAreRejected) {
  auto backend = MakeOrtBackend();
  auto typo = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:cpu?thread=2").take());
  ASSERT_FALSE(typo.ok());
  // "thread" alone is in the input (ort:cpu?thread=2): check the explanation.
  EXPECT_NE(typo.error().find("unknown option(s) thread; this backend accepts: threads"), std::string::npos)
      << typo.error();
  auto level = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:cpu?opt=max").take());
  EXPECT_FALSE(level.ok());
  auto device = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:gpu").take());
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.error().find("ort:xnnpack"), std::string::npos);
}

TEST(OrtBackend, UsersDoNotSeeSchemaNoise) {
  // stderr only: the table goes to /dev/null.
  auto r = testing::RunCommand(testing::Executable() + " run " + TestModel("vit_micro.onnx") +
                               " --target ort:cpu,ort:xnnpack --min-queries 5 --warmup 1"
                               " --min-duration 0 2>&1 >/dev/null");
  // Other lines may pass (a CPU-specific cpuinfo warning, say); the registration noise never.
  EXPECT_EQ(r.output.find("Schema error"), std::string::npos) << r.output.substr(0, 500);
  EXPECT_EQ(r.output.find("already registered"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
