// Affine dequantization, per tensor and per channel, pinned by exact values.
#include "core/dequantize.h"

#include <gtest/gtest.h>

#include <cstring>

namespace edgebench {
namespace {

Tensor Int8(std::vector<int64_t> shape, std::vector<int8_t> values) {
  Tensor t;
  t.name = "q";
  t.dtype = DType::kInt8;
  t.shape = std::move(shape);
  t.data.resize(values.size());
  std::memcpy(t.data.data(), values.data(), values.size());
  return t;
}

TEST(Dequantize, PerTensorScaleAndZeroPoint) {
  auto out = DequantizeAffine(Int8({4}, {-128, -3, 0, 127}), {0.5f}, {-3}, 0);
  ASSERT_TRUE(out.ok()) << out.error();
  ASSERT_EQ(out.value().dtype, DType::kFloat32);
  const float* v = out.value().as<float>();
  EXPECT_FLOAT_EQ(v[0], -62.5f);
  EXPECT_FLOAT_EQ(v[1], 0.0f);
  EXPECT_FLOAT_EQ(v[2], 1.5f);
  EXPECT_FLOAT_EQ(v[3], 65.0f);
}

TEST(Dequantize, PerChannelAlongTheGivenAxis) {
  // Shape [1, 2, 3], channels on axis 1: the first three values use channel 0's parameters.
  auto out = DequantizeAffine(Int8({1, 2, 3}, {1, 2, 3, 1, 2, 3}), {1.0f, 10.0f}, {0, 1}, 1);
  ASSERT_TRUE(out.ok()) << out.error();
  const float* v = out.value().as<float>();
  EXPECT_FLOAT_EQ(v[2], 3.0f);
  EXPECT_FLOAT_EQ(v[3], 0.0f);
  EXPECT_FLOAT_EQ(v[5], 20.0f);
}

TEST(Dequantize, RefusesWhatItCannotDequantize) {
  EXPECT_FALSE(DequantizeAffine(Int8({2, 3}, {1, 2, 3, 4, 5, 6}), {1.0f, 2.0f}, {0, 0}, 1).ok());  // 3 channels
  EXPECT_FALSE(DequantizeAffine(Int8({2}, {1, 2}), {}, {}, 0).ok());
  Tensor f = Int8({1}, {0});
  f.dtype = DType::kFloat32;
  EXPECT_FALSE(DequantizeAffine(f, {1.0f}, {0}, 0).ok());
}

}  // namespace
}  // namespace edgebench
