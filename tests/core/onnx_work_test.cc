#include "core/onnx_work.h"

#include <gtest/gtest.h>

#include "../test_util.h"
#include "core/model_ops.h"
#include "core/onnx_writer.h"

namespace edgebench {
namespace {

TensorWork Count(const OnnxModelWriter& writer, const std::vector<BoundShape>& inputs = {}, int64_t opset = 17) {
  auto graph = ParseOnnxGraph(writer.Serialize(opset), "test.onnx");
  EXPECT_TRUE(graph.ok()) << graph.error();
  if (!graph.ok()) return {};
  return CountOnnxWork(graph.value(), inputs);
}

// Conv 3->4 channels, 3x3, pad 1, on 8x8: 256 outputs, each 27 multiply-adds and a bias add.
TEST(OnnxWork, ConvCountedByHand) {
  OnnxModelWriter w;
  w.AddInput("x", 1, {1, 3, 8, 8});
  w.AddRandomFloatInitializer("w", {4, 3, 3, 3}, 1);
  w.AddRandomFloatInitializer("b", {4}, 2);
  w.AddNode("Conv", {"x", "w", "b"}, {"y"}, {{}, {}, {{"pads", {1, 1, 1, 1}}}});
  w.AddOutput("y", 1, {1, 4, 8, 8});
  const TensorWork work = Count(w);
  ASSERT_TRUE(work.counted()) << work.omitted;
  EXPECT_DOUBLE_EQ(work.conv_flops, 2.0 * 256 * 27 + 256);
  EXPECT_DOUBLE_EQ(work.flops(), 14080);
  EXPECT_FALSE(work.approximate());
  EXPECT_EQ(work.weight_bytes, (108 + 4) * 4);
  EXPECT_EQ(work.activation_bytes, (192 + 256) * 4);
}

// Depthwise (group 4), stride 2, no padding, 9x9 -> 4x4: 64 outputs of 9 multiply-adds each.
TEST(OnnxWork, GroupedStridedConv) {
  OnnxModelWriter w;
  w.AddInput("x", 1, {1, 4, 9, 9});
  w.AddRandomFloatInitializer("w", {4, 1, 3, 3}, 1);
  w.AddNode("Conv", {"x", "w"}, {"y"}, {{{"group", 4}}, {}, {{"strides", {2, 2}}}});
  w.AddOutput("y", 1, {1, 4, 4, 4});
  const TensorWork work = Count(w);
  ASSERT_TRUE(work.counted()) << work.omitted;
  EXPECT_DOUBLE_EQ(work.conv_flops, 2.0 * 64 * 9);
  EXPECT_EQ(work.activation_bytes, (324 + 64) * 4);
}

TEST(OnnxWork, MatMulAndGemmCountedByHand) {
  OnnxModelWriter w;
  w.AddInput("a", 1, {2, 3, 4});
  w.AddRandomFloatInitializer("b", {4, 5}, 1);
  w.AddNode("MatMul", {"a", "b"}, {"y"});  // [2,3,5]: 30 outputs of 4 multiply-adds
  w.AddInput("g", 1, {3, 4});
  w.AddRandomFloatInitializer("gb", {5, 4}, 2);
  w.AddRandomFloatInitializer("gc", {5}, 3);
  w.AddNode("Gemm", {"g", "gb", "gc"}, {"z"}, {{{"transB", 1}}, {}, {}});  // [3,5] + bias
  w.AddOutput("y", 1, {2, 3, 5});
  w.AddOutput("z", 1, {3, 5});
  const TensorWork work = Count(w);
  ASSERT_TRUE(work.counted()) << work.omitted;
  EXPECT_DOUBLE_EQ(work.matmul_flops, 240 + 135);
  EXPECT_EQ(work.weight_bytes, (20 + 20 + 5) * 4);
}

// One pre-norm ViT encoder block, sequence 5, hidden 8, 2 heads of 4, MLP 32, built as
// scripts/models/make_vit.py builds it; every figure below is worked out by hand.
TEST(OnnxWork, VitBlockCountedByHand) {
  OnnxModelWriter w;
  w.AddInput("x", 1, {1, 5, 8});
  int seed = 0;
  const auto ln = [&](const std::string& in, const std::string& out) {
    w.AddRandomFloatInitializer(out + "_s", {8}, ++seed);
    w.AddRandomFloatInitializer(out + "_b", {8}, ++seed);
    w.AddNode("LayerNormalization", {in, out + "_s", out + "_b"}, {out}, {{{"axis", -1}}, {{"epsilon", 1e-6f}}, {}});
  };
  const auto linear = [&](const std::string& in, int64_t d_in, int64_t d_out, const std::string& out) {
    w.AddRandomFloatInitializer(out + "_w", {d_in, d_out}, ++seed);
    w.AddRandomFloatInitializer(out + "_b", {d_out}, ++seed);
    w.AddNode("MatMul", {in, out + "_w"}, {out + "_mm"});
    w.AddNode("Add", {out + "_mm", out + "_b"}, {out});
  };
  ln("x", "ln1");
  linear("ln1", 8, 24, "qkv");
  w.AddInt64Initializer("qkv_shape", {0, 5, 3, 2, 4});
  w.AddNode("Reshape", {"qkv", "qkv_shape"}, {"qkv5"});
  w.AddNode("Transpose", {"qkv5"}, {"qkvt"}, {{}, {}, {{"perm", {2, 0, 3, 1, 4}}}});
  for (int i = 0; i < 3; ++i) {
    w.AddInitializer("idx" + std::to_string(i), 7, {}, std::string(1, static_cast<char>(i)) + std::string(7, '\0'));
  }
  w.AddNode("Gather", {"qkvt", "idx0"}, {"q"}, {{{"axis", 0}}, {}, {}});
  w.AddNode("Gather", {"qkvt", "idx1"}, {"k"}, {{{"axis", 0}}, {}, {}});
  w.AddNode("Gather", {"qkvt", "idx2"}, {"v"}, {{{"axis", 0}}, {}, {}});
  w.AddNode("Transpose", {"k"}, {"kt"}, {{}, {}, {{"perm", {0, 1, 3, 2}}}});
  w.AddNode("MatMul", {"q", "kt"}, {"scores"});
  w.AddRandomFloatInitializer("scale", {}, ++seed);
  w.AddNode("Mul", {"scores", "scale"}, {"scaled"});
  w.AddNode("Softmax", {"scaled"}, {"attn"}, {{{"axis", -1}}, {}, {}});
  w.AddNode("MatMul", {"attn", "v"}, {"ctx"});
  w.AddNode("Transpose", {"ctx"}, {"ctxt"}, {{}, {}, {{"perm", {0, 2, 1, 3}}}});
  w.AddInt64Initializer("ctx_shape", {0, 5, 8});
  w.AddNode("Reshape", {"ctxt", "ctx_shape"}, {"ctx3"});
  linear("ctx3", 8, 8, "proj");
  w.AddNode("Add", {"x", "proj"}, {"res1"});
  ln("res1", "ln2");
  linear("ln2", 8, 32, "fc1");
  w.AddRandomFloatInitializer("c", {}, ++seed);
  w.AddNode("Div", {"fc1", "c"}, {"g1"});
  w.AddNode("Erf", {"g1"}, {"g2"});
  w.AddNode("Add", {"g2", "c"}, {"g3"});
  w.AddNode("Mul", {"fc1", "c"}, {"g4"});
  w.AddNode("Mul", {"g4", "g3"}, {"gelu"});
  linear("gelu", 32, 8, "fc2");
  w.AddNode("Add", {"res1", "fc2"}, {"out"});
  w.AddOutput("out", 1, {1, 5, 8});
  const TensorWork work = Count(w);
  ASSERT_TRUE(work.counted()) << work.omitted;
  // qkv 2*5*24*8, q.k 2*2*5*5*4, attn.v 2*2*5*4*5, proj 2*5*8*8, fc1 2*5*32*8, fc2 2*5*8*32.
  EXPECT_DOUBLE_EQ(work.matmul_flops, 1920 + 400 + 400 + 640 + 2560 + 2560);
  // LayerNorm 8/element (2 x 40), biases (120, 40, 160, 40), scale 50, softmax 5 x 50,
  // residuals 2 x 40, GELU 5 x 160.
  EXPECT_DOUBLE_EQ(work.rule_flops, 2 * 320 + 120 + 40 + 160 + 40 + 50 + 250 + 80 + 800);
  EXPECT_TRUE(work.approximate());
  EXPECT_EQ(work.conv_flops, 0);
}

// The test fixture vit_micro.onnx (make_vit.py --preset micro: 32x32, patch 8, hidden 32, 2 layers
// of 2 heads, 10 classes): its exact part against the formula, its weights against the reader's.
TEST(OnnxWork, VitMicroFixtureMatchesTheFormula) {
  const std::string path = testing::TestModel("vit_micro.onnx");
  const TensorWork work = CountOnnxWorkInFile(path, {});
  ASSERT_TRUE(work.counted()) << work.omitted;
  EXPECT_DOUBLE_EQ(work.conv_flops, 2.0 * (32 * 16) * (3 * 8 * 8) + 32 * 16);
  const double per_layer = 2.0 * 17 * 96 * 32 + 2 * (2.0 * 2 * 17 * 17 * 16) + 2.0 * 17 * 32 * 32 +
                           2 * (2.0 * 17 * 128 * 32);
  EXPECT_DOUBLE_EQ(work.matmul_flops, 2 * per_layer + 2.0 * 10 * 32);
  auto ops = ReadModelOps(path);
  ASSERT_TRUE(ops.ok());
  EXPECT_EQ(work.weight_bytes, ops.value().parameter_bytes);
  // Its class token is [1, 1, 32]: at batch 4 the Concat does not join, and the counter says so.
  const TensorWork batch4 = CountOnnxWorkInFile(path, {{"pixel_values", {4, 3, 32, 32}}});
  EXPECT_FALSE(batch4.counted());
  EXPECT_NE(batch4.omitted.find("Concat"), std::string::npos) << batch4.omitted;
}

// torch.onnx.export's dynamic batch: Shape -> Slice -> Concat -> Expand resolves at the bound size.
TEST(OnnxWork, ShapeChainsResolveAtTheBoundShape) {
  OnnxModelWriter w;
  w.AddInput("x", 1, {1, 4});  // declared batch 1; bound at 3 below
  w.AddNode("Shape", {"x"}, {"s"});
  w.AddInt64Initializer("zero", {0});
  w.AddInt64Initializer("one", {1});
  w.AddNode("Slice", {"s", "zero", "one"}, {"batch"});
  w.AddInt64Initializer("four", {4});
  w.AddNode("Concat", {"batch", "four"}, {"shape"}, {{{"axis", 0}}, {}, {}});
  w.AddRandomFloatInitializer("row", {1, 4}, 1);
  w.AddNode("Expand", {"row", "shape"}, {"rows"});
  w.AddNode("Add", {"x", "rows"}, {"y"});
  w.AddOutput("y", 1, {1, 4});
  const TensorWork work = Count(w, {{"x", {3, 4}}});
  ASSERT_TRUE(work.counted()) << work.omitted;
  EXPECT_DOUBLE_EQ(work.rule_flops, 12);
}

TEST(OnnxWork, WhatCannotBeCountedIsOmittedWithTheReason) {
  {
    OnnxModelWriter w;
    w.AddInput("x", 1, {1, 4});
    w.AddNode("FancyOp", {"x"}, {"y"});
    const TensorWork work = Count(w);
    EXPECT_FALSE(work.counted());
    EXPECT_NE(work.omitted.find("FancyOp"), std::string::npos) << work.omitted;
  }
  {  // A reshape whose target comes from an input: known only at run time.
    OnnxModelWriter w;
    w.AddInput("x", 1, {2, 4});
    w.AddInput("shape", 7, {2});
    w.AddNode("Reshape", {"x", "shape"}, {"y"});
    const TensorWork work = Count(w);
    EXPECT_FALSE(work.counted());
    EXPECT_NE(work.omitted.find("run time"), std::string::npos) << work.omitted;
  }
  {  // Absurd bound shapes: no overflow, a reason.
    OnnxModelWriter w;
    w.AddInput("a", 1, {1, 4});
    w.AddNode("MatMul", {"a", "a"}, {"y"});
    const TensorWork work = Count(w, {{"a", {int64_t{1} << 40, int64_t{1} << 40}}});
    EXPECT_FALSE(work.counted());
  }
  {  // Mismatched inner dimensions: the model is wrong at this shape, the counter says so.
    OnnxModelWriter w;
    w.AddInput("a", 1, {2, 3});
    w.AddRandomFloatInitializer("b", {4, 5}, 1);
    w.AddNode("MatMul", {"a", "b"}, {"y"});
    EXPECT_NE(Count(w).omitted.find("inner dimensions"), std::string::npos);
  }
  {  // A value no node makes.
    OnnxModelWriter w;
    w.AddInput("a", 1, {2, 3});
    w.AddNode("Relu", {"ghost"}, {"y"});
    EXPECT_NE(Count(w).omitted.find("ghost"), std::string::npos);
  }
  EXPECT_FALSE(CountTensorWork("/nonexistent/model.onnx", {}).counted());
  EXPECT_NE(CountTensorWork("model.pte", {}).omitted.find(".onnx"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
