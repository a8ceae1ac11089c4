#include "core/model_ops.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "backends/build_config.h"

namespace edgebench {
namespace {

std::map<std::string, int> CountOps(const ModelOps& ops) {
  std::map<std::string, int> counts;
  for (const ModelNode& node : ops.nodes) ++counts[node.op_type];
  return counts;
}

// Counts checked against onnx.load(...).graph.node in Python.
TEST(ModelOps, ReadsTheVitMicroGraph) {
  auto read = ReadModelOps(testing::TestModel("vit_micro.onnx"));
  ASSERT_TRUE(read.ok()) << read.error();
  const ModelOps& ops = read.value();
  EXPECT_EQ(ops.format, ModelFormat::kOnnx);
  ASSERT_EQ(ops.nodes.size(), 68u);
  EXPECT_EQ(ops.nodes.front().op_type, "Conv");
  EXPECT_EQ(ops.nodes.front().domain, "ai.onnx");
  const std::map<std::string, int> expected = {
      {"Add", 16}, {"Concat", 1}, {"Conv", 1}, {"Div", 2}, {"Erf", 2},
      {"Gather", 7}, {"Identity", 1}, {"LayerNormalization", 5}, {"MatMul", 13},
      {"Mul", 6}, {"Reshape", 5}, {"Softmax", 2}, {"Transpose", 7}};
  EXPECT_EQ(CountOps(ops), expected);
  EXPECT_EQ(ops.opsets.at("ai.onnx"), 17);
  // 52 initializers, float32 and int64: sum(prod(dims) * element size).
  EXPECT_EQ(ops.parameter_bytes, 130456);
  EXPECT_TRUE(ops.parameter_bytes_known);
  int64_t per_node = 0;
  for (const ModelNode& node : ops.nodes) per_node += node.parameter_bytes;
  EXPECT_LE(per_node, ops.parameter_bytes);
  EXPECT_GT(ops.nodes.front().parameter_bytes, 0);  // the patch embedding's weights
}

TEST(ModelOps, TruncatedOnnxIsAnErrorNamingTheFile) {
  const std::string path = testing::TestModel("truncated.onnx");
  auto read = ReadModelOps(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find(path), std::string::npos) << read.error();
  EXPECT_NE(read.error().find("truncated"), std::string::npos) << read.error();

  // A real model cut mid-way: the wire format ends inside a field.
  std::ifstream in(testing::TestModel("vit_micro.onnx"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto cut = ParseOnnxOps(bytes.substr(0, bytes.size() / 2), "half.onnx");
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.error().find("half.onnx"), std::string::npos) << cut.error();
  EXPECT_FALSE(ParseOnnxOps("this is not a model", "text.onnx").ok());
}

TEST(ModelOps, MissingFileAndUnknownExtensionSaySo) {
  auto missing = ReadModelOps("/nonexistent/model.onnx");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("/nonexistent/model.onnx"), std::string::npos);
  auto other = ReadModelOps("model.pt");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().find(".onnx and .tflite"), std::string::npos) << other.error();
}

#if EDGEBENCH_WITH_LITERT
// Counts checked with an independent reader of the flatbuffer (Python, struct module) over
// subgraph 0's operators: 164 operators, 74 of them DEQUANTIZE (fp16 weights).
TEST(ModelOps, ReadsBlazeFaceOperators) {
  auto read = ReadModelOps(testing::BlazeFaceShort());
  ASSERT_TRUE(read.ok()) << read.error();
  const ModelOps& ops = read.value();
  EXPECT_EQ(ops.format, ModelFormat::kTflite);
  ASSERT_EQ(ops.nodes.size(), 164u);
  const std::map<std::string, int> expected = {
      {"ADD", 16}, {"CONCATENATION", 2}, {"CONV_2D", 21}, {"DEPTHWISE_CONV_2D", 16},
      {"DEQUANTIZE", 74}, {"MAX_POOL_2D", 3}, {"RELU", 17}, {"RESHAPE", 4}, {"PAD", 11}};
  EXPECT_EQ(CountOps(ops), expected);
  EXPECT_GT(ops.parameter_bytes, 100000);
}

// The declared inputs `tune` prunes batches by: a fixed first axis, or a free one.
TEST(ModelOps, ReadsDeclaredInputShapes) {
  auto fixed = ReadModelOps(testing::TestModel("vit_micro.onnx"));
  ASSERT_TRUE(fixed.ok()) << fixed.error();
  ASSERT_EQ(fixed.value().inputs.size(), 1u) << "initializers are not inputs";
  EXPECT_EQ(fixed.value().inputs[0].name, "pixel_values");
  ASSERT_EQ(fixed.value().inputs[0].axes.size(), 4u);
  EXPECT_EQ(fixed.value().inputs[0].axes[0], std::optional<int64_t>(1));
  auto dynamic = ReadModelOps(testing::TestModel("vit_micro_dynamic.onnx"));
  ASSERT_TRUE(dynamic.ok()) << dynamic.error();
  EXPECT_EQ(dynamic.value().inputs[0].axes[0], std::nullopt);
  auto blazeface = ReadModelOps(testing::BlazeFaceShort());
  ASSERT_TRUE(blazeface.ok()) << blazeface.error();
  ASSERT_EQ(blazeface.value().inputs.size(), 1u);
  const std::vector<std::optional<int64_t>> nhwc = {1, 128, 128, 3};
  EXPECT_EQ(blazeface.value().inputs[0].axes, nhwc);
}

TEST(ModelOps, TruncatedTfliteIsAnErrorNamingTheFile) {
  const std::string path = testing::FixtureVariant("face_short_truncated.tflite");
  auto read = ReadModelOps(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find(path), std::string::npos) << read.error();
}
#endif

}  // namespace
}  // namespace edgebench
