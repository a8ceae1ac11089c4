// A TFLite model's work per query, counted from its flatbuffer, on the compute probe's own model
// (one FULLY_CONNECTED, diagnose/tflite_probe_model.h) where the count is known by hand: an
// [N, N] input by [N, N] weights is 2 N^3 operations, the weights read once, input and output
// written once.
#include "core/tflite_work.h"

#include <gtest/gtest.h>

#include "../test_util.h"
#include "diagnose/tflite_probe_model.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

std::string ProbeFile(int64_t size, bool int8) {
  auto bytes = TfliteMatMulModel(size, int8);
  EXPECT_TRUE(bytes.ok()) << bytes.error();
  return WriteTempFile("tflite_work_", std::to_string(size) + (int8 ? "_int8" : "_fp32") + ".tflite",
                       bytes.ok() ? bytes.value() : std::string());
}

TEST(TfliteWork, FullyConnectedCountedByHand) {
  const int64_t n = 48;
  const TensorWork work = CountTensorWork(ProbeFile(n, false), {});
  ASSERT_TRUE(work.counted()) << work.omitted;
  EXPECT_EQ(work.nodes, 1);
  EXPECT_EQ(work.precision, "fp32");
  EXPECT_DOUBLE_EQ(work.matmul_flops, 2.0 * n * n * n);
  EXPECT_EQ(work.conv_flops, 0);
  EXPECT_FALSE(work.approximate());
  EXPECT_EQ(work.weight_bytes, n * n * 4);
  EXPECT_EQ(work.activation_bytes, 2 * n * n * 4);  // the input and the output
}

TEST(TfliteWork, Int8WeightsMakeAnInt8Count) {
  const int64_t n = 32;
  const TensorWork work = CountTensorWork(ProbeFile(n, true), {});
  ASSERT_TRUE(work.counted()) << work.omitted;
  EXPECT_EQ(work.precision, "int8") << "held to the runtime's int8 peak";
  EXPECT_DOUBLE_EQ(work.matmul_flops, 2.0 * n * n * n);
  EXPECT_EQ(work.weight_bytes, n * n);
  EXPECT_EQ(work.activation_bytes, 2 * n * n);
}

TEST(TfliteWork, WhatCannotBeCountedIsOmittedWithTheReason) {
  const std::string path = ProbeFile(16, false);
  const TensorWork same = CountTensorWork(path, {{"a", {16, 16}}});
  EXPECT_TRUE(same.counted()) << same.omitted;
  const TensorWork reshaped = CountTensorWork(path, {{"a", {4, 16}}});
  EXPECT_FALSE(reshaped.counted());
  EXPECT_NE(reshaped.omitted.find("input 'a' was bound at"), std::string::npos) << reshaped.omitted;
  const std::string truncated = WriteTempFile("tflite_work_", "cut.tflite", TfliteMatMulModel(16, false).value().substr(0, 40));
  const TensorWork cut = CountTensorWork(truncated, {});
  EXPECT_FALSE(cut.counted());
  EXPECT_NE(cut.omitted.find("not a complete TFLite model"), std::string::npos) << cut.omitted;
  EXPECT_FALSE(CountTensorWork(TempFilePath("tflite_work_", "absent.tflite"), {}).counted());
  EXPECT_FALSE(TfliteMatMulModel(0, false).ok());
}

}  // namespace
}  // namespace edgebench
