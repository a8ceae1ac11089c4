#include "inputs/input_generator.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

Signature Mixed() {
  Signature s;
  s.inputs.push_back({"f", DType::kFloat32, {Dim::Fixed(4), Dim::Fixed(5)}});
  s.inputs.push_back({"ids", DType::kInt64, {Dim::Fixed(7)}});
  s.inputs.push_back({"h", DType::kFloat16, {Dim::Fixed(3)}});
  return s;
}

TEST(InputGenerator, SameSeedSameBytesOtherSeedOtherBytes) {
  const std::vector<std::vector<int64_t>> shapes = {{4, 5}, {7}, {3}};
  auto a = GenerateInputs(Mixed(), shapes, 42);
  auto b = GenerateInputs(Mixed(), shapes, 42);
  auto c = GenerateInputs(Mixed(), shapes, 43);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a.value()[i].data, b.value()[i].data);
    EXPECT_NE(a.value()[i].data, c.value()[i].data);
  }
  EXPECT_EQ(a.value()[0].data.size(), 4u * 5u * 4u);
  EXPECT_EQ(a.value()[1].data.size(), 7u * 8u);
  EXPECT_EQ(a.value()[2].data.size(), 3u * 2u);
}

TEST(InputGenerator, ValuesInDocumentedRanges) {
  auto t = GenerateInputs(Mixed(), {{4, 5}, {7}, {3}}, 1);
  ASSERT_TRUE(t.ok());
  const float* f = t.value()[0].as<float>();
  for (int i = 0; i < 20; ++i) {
    EXPECT_GE(f[i], -1.0f);
    EXPECT_LT(f[i], 1.0f);
  }
  const int64_t* ids = t.value()[1].as<int64_t>();
  for (int i = 0; i < 7; ++i) {
    EXPECT_GE(ids[i], 0);
    EXPECT_LT(ids[i], 100);
  }
}

TEST(InputGenerator, RefusesUnknownTypes) {
  Signature s;
  s.inputs.push_back({"strange", DType::kUnknown, {Dim::Fixed(1)}});
  auto r = GenerateInputs(s, {{1}}, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("input 'strange' has a data type edgebench cannot generate"), std::string::npos)
      << r.error();
}

}  // namespace
}  // namespace edgebench
