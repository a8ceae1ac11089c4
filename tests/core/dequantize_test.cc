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

TEST(Quantize, RoundsHalfAwayFromZeroAndClampsToTheType) {
  Tensor real;
  real.name = "x";
  real.dtype = DType::kFloat32;
  real.shape = {6};
  const std::vector<float> values = {0.0f, 0.25f, -0.25f, 0.74f, 100.0f, -100.0f};
  real.data.resize(values.size() * sizeof(float));
  std::memcpy(real.data.data(), values.data(), real.data.size());
  TensorQuantization q{{0.5f}, {-3}, 0};
  auto out = QuantizeAffine(real, DType::kInt8, q);
  ASSERT_TRUE(out.ok()) << out.error();
  ASSERT_EQ(out.value().dtype, DType::kInt8);
  const int8_t* v = out.value().as<int8_t>();
  EXPECT_EQ(v[0], -3);
  EXPECT_EQ(v[1], -2);   // 0.5 rounds away from zero: 1, plus -3
  EXPECT_EQ(v[2], -4);   // -0.5 -> -1
  EXPECT_EQ(v[3], -2);   // 1.48 -> 1
  EXPECT_EQ(v[4], 127);  // clamped
  EXPECT_EQ(v[5], -128);
  // Dequantizing gives back the values within half a step, inside the range.
  auto back = DequantizeAffine(out.value(), q.scales, q.zero_points, 0);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_NEAR(back.value().as<float>()[3], 0.74f, 0.25f);
  auto u8 = QuantizeAffine(real, DType::kUInt8, TensorQuantization{{1.0f}, {10}, 0});
  ASSERT_TRUE(u8.ok()) << u8.error();
  EXPECT_EQ(u8.value().as<uint8_t>()[5], 0);
  EXPECT_FALSE(QuantizeAffine(real, DType::kInt8, TensorQuantization{}).ok());
  EXPECT_FALSE(QuantizeAffine(real, DType::kInt8, TensorQuantization{{0.0f}, {0}, 0}).ok());
  EXPECT_FALSE(QuantizeAffine(real, DType::kInt8, TensorQuantization{{1.0f, 2.0f}, {0, 0}, 0}).ok());
  EXPECT_FALSE(QuantizeAffine(real, DType::kFloat32, q).ok());
}

}  // namespace
}  // namespace edgebench
