// edgebench drift as a user runs it: a seeded conv net, its INT8 QDQ variant, and that variant
// with one layer damaged (tests/models/make_drift_models.py).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "../fixtures_util.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

nlohmann::json Drift(const std::string& args, int* exit_code) {
  auto r = RunCommand(Executable() + " drift " + args + " --format json");
  *exit_code = r.exit_code;
  auto json = nlohmann::json::parse(r.output, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << r.output;
  return json;
}

std::string Cnn() {
  return "cnn=" + TestModel("drift_cnn_fp32.onnx") + "?variant=fp32," + TestModel("drift_cnn_int8.onnx") +
         "?variant=int8," + TestModel("drift_cnn_int8_conv2x1.5.onnx") + "?variant=int8-damaged";
}

const nlohmann::json* Row(const nlohmann::json& candidate, const std::string& tensor) {
  for (const auto& row : candidate["tensors"]) {
    if (row["tensor"] == tensor) return &row;
  }
  return nullptr;
}

TEST(DriftCli, NamesTheDamagedLayerAsWhereDriftStarts) {
  int code = -1;
  auto report = Drift("'" + Cnn() + "' --reference fp32 --candidate int8-damaged,int8 --samples 8", &code);
  ASSERT_EQ(code, 0) << report.dump(2);
  ASSERT_EQ(report["candidates"].size(), 2u);
  const auto& damaged = report["candidates"][0];
  EXPECT_EQ(damaged["first_drift"], "conv2_out") << damaged.dump(2);
  EXPECT_EQ(damaged["largest_drop"], "conv2_out") << damaged.dump(2);
  const nlohmann::json* conv2 = Row(damaged, "conv2_out");
  ASSERT_NE(conv2, nullptr);
  EXPECT_EQ((*conv2)["candidate_tensor"], "conv2_out_DequantizeLinear_Output");
  EXPECT_EQ((*conv2)["node"], "conv2");
  EXPECT_EQ((*conv2)["op_type"], "Conv");
  EXPECT_LT((*conv2)["sqnr_db"].get<double>(), 12.0);  // 1.5x: 20 log10(1 / 0.5) = 6 dB, plus rounding
  const nlohmann::json* conv1 = Row(damaged, "conv1_out");
  ASSERT_NE(conv1, nullptr);
  EXPECT_GT((*conv1)["sqnr_db"].get<double>(), 30.0);

  const auto& healthy = report["candidates"][1];
  EXPECT_NE(healthy["first_drift"], "conv2_out") << healthy.dump(2);
  const nlohmann::json* healthy_conv2 = Row(healthy, "conv2_out");
  ASSERT_NE(healthy_conv2, nullptr);
  EXPECT_GE((*healthy_conv2)["sqnr_db"].get<double>(), 30.0);
  // The QDQ model's weight dequantizations have no reference tensor; the quantizer folded the
  // Relus into the ranges, so the reference's bn*_out have no candidate.
  EXPECT_GT(healthy["candidate_only"].size(), 0u);
  EXPECT_GT(healthy["matched"].get<int>(), 5);
  // Whether exposing the intermediates changed the output is stated, whichever it is.
  EXPECT_TRUE(healthy["exposure_changed_output"].is_boolean()) << healthy.dump(2);
  ASSERT_EQ(healthy["final_outputs"].size(), 1u);
  EXPECT_EQ(healthy["final_outputs"][0]["tensor"], "logits");
}

TEST(DriftCli, IdenticalSidesAreExactEverywhere) {
  int code = -1;
  const std::string fp32 = TestModel("drift_cnn_fp32.onnx");
  auto report = Drift("--reference " + fp32 + " --candidate " + fp32 + " --samples 3", &code);
  ASSERT_EQ(code, 0) << report.dump(2);
  const auto& same = report["candidates"][0];
  EXPECT_TRUE(same["first_drift"].is_null());
  EXPECT_TRUE(same["largest_drop"].is_null());
  ASSERT_GE(same["tensors"].size(), 10u);
  for (const auto& row : same["tensors"]) {
    EXPECT_EQ(row["sqnr_db"], "inf") << row.dump();
    EXPECT_EQ(row["cosine"].get<double>(), 1.0) << row.dump();
  }
  EXPECT_EQ(same["reference_only"].size(), 0u);
  EXPECT_EQ(same["candidate_only"].size(), 0u);
  // Exposing the intermediates may stop a fusion (Conv+BatchNormalization here), which changes
  // the output by float rounding at most: stated, and far above any drift threshold.
  ASSERT_TRUE(same["exposure_changed_output"].is_boolean());
  if (same["exposure_changed_output"].get<bool>()) {
    EXPECT_GT(same["exposure_output_sqnr_db"].get<double>(), 100) << same.dump(2);
  } else {
    EXPECT_EQ(same["exposure_output_sqnr_db"], "inf");
  }
}

TEST(DriftCli, ADifferentGraphStillCountsMatchedAndUnmatched) {
  int code = -1;
  auto report = Drift("--reference " + TestModel("drift_cnn_fp32.onnx") + " --candidate " +
                          TestModel("drift_mlp_other.onnx") + " --samples 2",
                      &code);
  ASSERT_EQ(code, 0) << report.dump(2);
  const auto& other = report["candidates"][0];
  EXPECT_EQ(other["matched"].get<int>(), 1);  // logits only
  EXPECT_EQ(other["reference_only"].size(), 11u);
  EXPECT_EQ(other["candidate_only"].size(), 1u);  // mlp_flat
}

// Models fed inputs of other shapes saw other values: no verdict, an error (exit 2).
TEST(DriftCli, ModelsWhoseInputsDifferInShapeAreNotComparable) {
  int code = -1;
  auto report = Drift("--reference " + TestModel("drift_cnn_fp32.onnx") + " --candidate " +
                          TestModel("vit_micro.onnx") + " --samples 2",
                      &code);
  EXPECT_EQ(code, 2) << report.dump(2);
  const auto& other = report["candidates"][0];
  EXPECT_EQ(other["status"], "not comparable");
  EXPECT_NE(other["error"].get<std::string>().find("its inputs are [1x3x32x32] and the reference's [1x3x16x16]"),
            std::string::npos)
      << other.dump(2);
  EXPECT_FALSE(other.contains("tensors")) << "no verdict on inputs that differ";
}

TEST(DriftCli, TfliteShowsItsIntermediates) {
  int code = -1;
  const std::string face = BlazeFaceShort();
  auto report = Drift("--reference " + face + " --candidate " + face + " --target litert:cpu --samples 1", &code);
  ASSERT_EQ(code, 0) << report.dump(2);
  const auto& same = report["candidates"][0];
  EXPECT_EQ(same["intermediates_unsupported"], "");
  EXPECT_GT(same["matched"].get<int>(), 20);
  for (const auto& row : same["tensors"]) EXPECT_EQ(row["sqnr_db"], "inf") << row.dump();
}

TEST(DriftCli, ASessionThatCannotShowItsTensorsSaysSo) {
  const std::string face = BlazeFaceShort();
  auto r = RunCommand(Executable() + " drift --reference " + face + " --candidate " + face +
                      " --target litert:xnnpack --samples 1 2>&1");
  if (r.output.find("not usable") != std::string::npos || r.output.find("unavailable") != std::string::npos) {
    GTEST_SKIP() << "litert:xnnpack is not available here: " << r.output;
  }
  EXPECT_NE(r.output.find("intermediate tensors unsupported"), std::string::npos) << r.output;
}

TEST(DriftCli, GgufGoesToTokenDriftAndIsNeverMixedWithTensorModels) {
  // A GGUF against itself: per-token KL divergence on llamacpp:cpu (the default target for
  // GGUF), exactly 0 (cli/token_drift_command_test.cc covers the statistics).
  auto gguf = RunCommand(Executable() + " drift --reference " + TestModel("llama-tiny.gguf") + " --candidate " +
                         TestModel("llama-tiny.gguf") + " --max-tokens 8 --format json 2>&1");
  EXPECT_EQ(gguf.exit_code, 0) << gguf.output;
  EXPECT_NE(gguf.output.find("\"mean_kld\""), std::string::npos) << gguf.output;
  auto mixed = RunCommand(Executable() + " drift --reference " + TestModel("llama-tiny.gguf") + " --candidate " +
                          TestModel("drift_cnn_int8.onnx") + " 2>&1");
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.output.find("drift compares language models with language models"), std::string::npos)
      << mixed.output;
  auto tensor_flag = RunCommand(Executable() + " drift '" + Cnn() + "' --reference fp32 --candidate int8 --prompts x.txt 2>&1");
  EXPECT_EQ(tensor_flag.exit_code, 2);
  EXPECT_NE(tensor_flag.output.find("are for GGUF language models"), std::string::npos) << tensor_flag.output;
}

TEST(DriftCli, RefusesUnknownVariants) {
  auto unknown = RunCommand(Executable() + " drift '" + Cnn() + "' --reference fp32 --candidate int4 2>&1");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("variants: fp32, int8, int8-damaged"), std::string::npos) << unknown.output;
}

TEST(DriftCli, OnALabelledDataSetItGivesEachSidesAccuracy) {
  // The accuracy tests' softmax regression and its coarse-weight variant on 1000 real test
  // images: each side's top-1 must be numpy's (tests/models/make_fashion_softmax.py).
  int code = -1;
  const std::string manifest = TestModel("fashion/fashion_softmax.json");
  auto report = Drift(manifest + " --reference fp32 --candidate coarse --data fashion-mnist --samples 1000", &code);
  ASSERT_EQ(code, 0) << report.dump(2);
  std::ifstream in(TestModel("fashion/expected.json"));
  const auto expected = nlohmann::json::parse(in);
  EXPECT_EQ(report["samples"], 1000);
  ASSERT_EQ(report["inputs"].size(), 1u);
  EXPECT_NE(report["inputs"][0].get<std::string>().find("t10k-images"), std::string::npos) << report["inputs"];
  EXPECT_NEAR(report["reference"]["top1"].get<double>(), expected["fp32"]["top1_correct"].get<double>() / 1000, 0.0011);
  const auto& coarse = report["candidates"][0];
  ASSERT_EQ(coarse["status"], "ok") << coarse.dump(2);
  EXPECT_NEAR(coarse["top1"].get<double>(), expected["coarse"]["top1_correct"].get<double>() / 1000, 0.0011);
  EXPECT_NEAR(coarse["top1_delta_points"].get<double>(),
              100 * (coarse["top1"].get<double>() - report["reference"]["top1"].get<double>()), 1e-9);
  // Rounded weights: the matmul's output is where it starts.
  ASSERT_NE(Row(coarse, "z"), nullptr) << coarse.dump(2);
  EXPECT_EQ(coarse["first_drift"], "z") << coarse.dump(2);
  // Data sets and seeded inputs do not mix, and --data needs a preprocessing.
  auto both = RunCommand(Executable() + " drift " + manifest + " --reference fp32 --candidate coarse --data fashion-mnist"
                         " --input image=0 2>&1");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.output.find("give one"), std::string::npos) << both.output;
  auto nopre = RunCommand(Executable() + " drift --reference " + TestModel("fashion/fashion_softmax.onnx") +
                          " --candidate " + TestModel("fashion/fashion_softmax_coarse.onnx") + " --data fashion-mnist 2>&1");
  EXPECT_EQ(nopre.exit_code, 2);
  EXPECT_NE(nopre.output.find("give --preprocess"), std::string::npos) << nopre.output;
}

}  // namespace
}  // namespace edgebench
