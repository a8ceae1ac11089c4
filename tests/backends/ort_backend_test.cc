// ONNX Runtime backend against small models the tests build.
#include "backends/ort/ort_backend.h"
#include "backends/ort/ort_providers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../test_util.h"
#include "inputs/input_generator.h"

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

// The devices are what the loaded library reports (Ort::GetAvailableProviders), one per provider.
TEST(OrtBackend, InfoListsEveryProviderTheLibraryReports) {
  auto backend = MakeOrtBackend();
  const BackendInfo info = backend->Info();
  EXPECT_EQ(info.name, "ort");
  EXPECT_FALSE(info.version.empty());
  const std::vector<std::string> available = Ort::GetAvailableProviders();
  ASSERT_GE(info.devices.size(), available.size());
  EXPECT_EQ(info.devices[0].name, "cpu");
  EXPECT_TRUE(info.devices[0].available);
  for (const std::string& provider : available) {
    const auto listed = std::find_if(info.devices.begin(), info.devices.end(),
                                     [&](const DeviceInfo& d) { return d.description == provider; });
    ASSERT_NE(listed, info.devices.end()) << provider;
  }
}

// A library with CUDA, TensorRT, QNN and a provider edgebench cannot add (the answer faked: this
// machine's ONNX Runtime has none of them).
TEST(OrtProviders, EveryReportedProviderBecomesATargetAndOneEdgebenchCannotAddSaysSo) {
  const std::vector<OrtProviderRoute> routes =
      OrtProviderRoutes({"TensorrtExecutionProvider", "CUDAExecutionProvider", "QNNExecutionProvider",
                         "MIGraphXExecutionProvider", "CPUExecutionProvider"});
  std::map<std::string, OrtProviderRoute> by_device;
  for (const OrtProviderRoute& r : routes) by_device[r.device] = r;
  ASSERT_EQ(routes.size(), 7u);
  EXPECT_EQ(routes[0].device, "cpu");
  EXPECT_TRUE(by_device.at("cpu").available);
  EXPECT_FALSE(by_device.at("xnnpack").available);
  EXPECT_NE(by_device.at("xnnpack").reason.find("no XnnpackExecutionProvider"), std::string::npos);
  EXPECT_EQ(by_device.at("cuda").append, OrtAppend::kCuda);
  EXPECT_EQ(by_device.at("tensorrt").append, OrtAppend::kTensorRt);
  EXPECT_EQ(by_device.at("qnn").append, OrtAppend::kByName);
  EXPECT_EQ(by_device.at("qnn").api_name, "QNN");
  EXPECT_TRUE(by_device.at("qnn").available);
  EXPECT_FALSE(by_device.at("migraphx").available);
  EXPECT_NE(by_device.at("migraphx").reason.find("cannot add it"), std::string::npos);
}

TEST(OrtProviders, QualcommsNpuIsListedEvenWhereTheLibraryLacksItSayingHowToAddIt) {
  const std::vector<OrtProviderRoute> routes = OrtProviderRoutes({"CPUExecutionProvider"});
  ASSERT_EQ(routes.size(), 4u);
  EXPECT_EQ(routes[3].device, "qnn");
  EXPECT_FALSE(routes[3].available);
  EXPECT_NE(routes[3].reason.find("ort:qnn?ep_library=PATH"), std::string::npos) << routes[3].reason;
}

TEST(OrtProviders, TheProvidersOwnOptionStringIsReadKeyByKey) {
  const auto options = ParseOrtOptionsString("use_arena=1;threadpool_args=0;");
  ASSERT_EQ(options.size(), 2u);
  EXPECT_EQ(options.at("use_arena"), "1");
  EXPECT_EQ(ParseOrtOptionsString("").size(), 0u);
  EXPECT_EQ(ParseOrtOptionsString("=1;;a=").at("a"), "");
}

// An option edgebench does not own reaches the provider, and the record keeps what the provider
// says it applied; a misspelt one is refused with the provider's own message.
TEST(OrtBackend, AProvidersOwnOptionReachesItAndAMisspeltOneIsRefusedByIt) {
  auto backend = MakeOrtBackend();
  if (!backend->Info().devices[2].available) GTEST_SKIP() << "no oneDNN provider here";
  // A oneDNN session: not under the sanitizers (see PlacementCountsTheModelsOwnNodes).
  if (!testing::kSanitizerBuild) {
    auto applied = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:dnnl?use_arena=0").take());
    ASSERT_TRUE(applied.ok()) << applied.error();
    EXPECT_EQ(applied.value()->effective_options().at("use_arena"), "0");
  }
  auto misspelt = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:dnnl?use_arenna=0").take());
  ASSERT_FALSE(misspelt.ok());
  EXPECT_NE(misspelt.error().find("DnnlExecutionProvider refused its options: "), std::string::npos)
      << misspelt.error();
  EXPECT_NE(misspelt.error().find("use_arenna"), std::string::npos) << misspelt.error();
  // XNNPACK's factory reads only its thread count: any other option would be dropped unseen.
  auto xnnpack = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:xnnpack?use_arena=0").take());
  ASSERT_FALSE(xnnpack.ok());
  EXPECT_NE(xnnpack.error().find("unknown option(s) use_arena"), std::string::npos) << xnnpack.error();
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

// vit_micro.onnx has 68 nodes (tests/models/make_test_models.py); ONNX Runtime 1.23 fuses the
// CPU's share to 60 with optimizations on (59 in its arm64 build, which fuses one more).
TEST(OrtBackend, PlacementCountsTheModelsOwnNodes) {
  auto backend = MakeOrtBackend();
  auto cpu = Load(*backend, "vit_micro.onnx", "ort:cpu");
  ASSERT_TRUE(cpu);
  const Placement p = cpu->GetPlacement();
#if defined(__aarch64__)
  const int fused_cpu_nodes = 59;
#else
  const int fused_cpu_nodes = 60;
#endif
  EXPECT_EQ(p.nodes_by_device, (std::map<std::string, int>{{"cpu", fused_cpu_nodes}}));
  EXPECT_EQ(p.model_nodes, 68);
  EXPECT_EQ(p.original_nodes_by_device, (std::map<std::string, int>{{"cpu", 68}}));
  EXPECT_TRUE(p.partitions_by_device.empty());
  EXPECT_TRUE(p.cpu_op_types.empty());  // the CPU was asked for: nothing was left there
  EXPECT_TRUE(cpu->notes().empty());

  // XNNPACK runs single nodes (MatMul, Softmax, Conv), which ORT lists by op type.
  auto xnn = Load(*backend, "vit_micro.onnx", "ort:xnnpack");
  ASSERT_TRUE(xnn);
  const Placement px = xnn->GetPlacement();
  EXPECT_EQ(px.nodes_by_device, (std::map<std::string, int>{{"cpu", 49}, {"xnnpack", 12}}));
  EXPECT_EQ(px.model_nodes, 68);
  EXPECT_EQ(px.original_nodes_by_device, (std::map<std::string, int>{{"cpu", 56}, {"xnnpack", 12}}));
  EXPECT_TRUE(px.partitions_by_device.empty());  // ORT does not say how they group
  EXPECT_EQ(px.cpu_op_types, (std::map<std::string, int>{{"Add", 16}, {"Concat", 1}, {"Div", 2},
                                                          {"Erf", 2}, {"Gather", 7}, {"Identity", 1},
                                                          {"LayerNormalization", 5}, {"MatMul", 4},
                                                          {"Mul", 6}, {"Reshape", 5}, {"Transpose", 7}}));
  EXPECT_EQ(px.ops_by_device.at("xnnpack"),
            (std::map<std::string, int>{{"Conv", 1}, {"Gemm", 9}, {"Softmax", 2}}));
  const std::vector<std::string> notes = xnn->notes();
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "fallback=allow: 56 of 68 nodes stayed on the CPU (op types: Add x16, Gather x7, "
                      "Transpose x7, Mul x6, LayerNormalization x5, Reshape x5, MatMul x4, Div x2, "
                      "Erf x2, Concat x1, Identity x1) (ONNX Runtime's CPU provider)"),
            notes.end());

  // oneDNN fuses subgraphs: 8 partitions that took 60 of the model's nodes. Not under the
  // sanitizers: ONNX Runtime 1.23.2's oneDNN provider (Debian's build) frees a 48-byte object
  // as a 1-byte one while it builds this session, and AddressSanitizer stops the process there.
  if (testing::kSanitizerBuild) return;
  auto dnnl = Load(*backend, "vit_micro.onnx", "ort:dnnl");
  ASSERT_TRUE(dnnl);
  const Placement pd = dnnl->GetPlacement();
  EXPECT_EQ(pd.nodes_by_device, (std::map<std::string, int>{{"cpu", 7}, {"dnnl", 8}}));
  EXPECT_EQ(pd.original_nodes_by_device, (std::map<std::string, int>{{"cpu", 8}, {"dnnl", 60}}));
  EXPECT_EQ(pd.partitions_by_device, (std::map<std::string, int>{{"dnnl", 8}}));
  EXPECT_EQ(pd.cpu_op_types, (std::map<std::string, int>{{"Gather", 7}, {"Identity", 1}}));
}

TEST(OrtBackend, FallbackFailRefusesAPartlyPlacedModelNamingTheOpTypes) {
  auto backend = MakeOrtBackend();
  auto xnn = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:xnnpack?fallback=fail").take());
  ASSERT_FALSE(xnn.ok());
  EXPECT_NE(xnn.error().find("fallback=fail: 56 of 68 nodes stayed on the CPU (op types: Add x16, "
                             "Gather x7, Transpose x7, Mul x6, LayerNormalization x5, Reshape x5, "
                             "MatMul x4, Div x2, Erf x2, Concat x1, Identity x1); ONNX Runtime would "
                             "have run them there with fallback=allow"),
            std::string::npos)
      << xnn.error();
  EXPECT_NE(xnn.error().find("fallback to CPU EP has been explicitly disabled"), std::string::npos)
      << xnn.error();
  // oneDNN: not under the sanitizers (see PlacementCountsTheModelsOwnNodes).
  if (!testing::kSanitizerBuild) {
    auto dnnl = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:dnnl?fallback=fail").take());
    ASSERT_FALSE(dnnl.ok());
    EXPECT_NE(dnnl.error().find("fallback=fail: 8 of 68 nodes stayed on the CPU (op types: Gather x7, "
                                "Identity x1)"),
              std::string::npos)
        << dnnl.error();
  }
  // The CPU provider is the CPU: nothing to fall back from.
  auto cpu = Load(*backend, "vit_micro.onnx", "ort:cpu?fallback=fail");
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->effective_options().at("fallback"), "fail");
  auto allow = Load(*backend, "vit_micro.onnx", "ort:cpu");
  ASSERT_TRUE(allow);
  EXPECT_EQ(allow->effective_options().count("fallback"), 0u);  // the default is not shown
  auto bad = backend->Load({TestModel("vit_micro.onnx")}, ParseTarget("ort:cpu?fallback=maybe").take());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("fallback"), std::string::npos) << bad.error();
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
  EXPECT_NE(device.error().find("ONNX Runtime has no device 'gpu' here; use ort:cpu, ort:xnnpack"), std::string::npos)
      << device.error();
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

namespace edgebench {
namespace {

TEST(OrtBackend, FallbackFailIsAFailedRecordAndTheEffectiveTargetShowsIt) {
  // Quoted: a target with '?' and '&'.
  auto r = testing::RunCommand(testing::Executable() + " run " + TestModel("vit_micro.onnx") +
                               " --target 'ort:xnnpack?fallback=fail,ort:cpu?fallback=fail&threads=1'"
                               " --min-queries 3 --warmup 1 --min-duration 0 --format jsonl 2>/dev/null");
  std::istringstream lines(r.output);
  std::string xnn_line, cpu_line;
  std::getline(lines, xnn_line);
  std::getline(lines, cpu_line);
  const auto xnn = nlohmann::json::parse(xnn_line);
  const auto cpu = nlohmann::json::parse(cpu_line);
  EXPECT_EQ(xnn["status"], "failed");
  EXPECT_EQ(xnn["failure"]["stage"], "load");
  const std::string why = xnn["failure"]["error"];
  EXPECT_NE(why.find("fallback=fail: 56 of 68 nodes stayed on the CPU (op types: Add x16,"),
            std::string::npos)
      << why;
  EXPECT_EQ(cpu["status"], "ok");
  EXPECT_EQ(cpu["config"]["effective_target"], "ort:cpu?fallback=fail&opt=all&threads=1");
  EXPECT_EQ(cpu["placement"]["model_nodes"], 68);
  EXPECT_EQ(cpu["placement"]["original_nodes_by_device"]["cpu"], 68);
}

}  // namespace
}  // namespace edgebench
