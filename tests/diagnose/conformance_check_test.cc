// The comparison behind `edgebench conformance`: what passes, and a planted wrong answer (a
// mutant of the expected output) that must not.
#include "diagnose/conformance_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace edgebench {
namespace {

Tensor Floats(const std::string& name, std::vector<int64_t> shape, std::vector<float> values) {
  Tensor t;
  t.name = name;
  t.dtype = DType::kFloat32;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(float));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

Tensor Int64s(const std::string& name, std::vector<int64_t> values) {
  Tensor t;
  t.name = name;
  t.dtype = DType::kInt64;
  t.shape = {static_cast<int64_t>(values.size())};
  t.data.resize(values.size() * sizeof(int64_t));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

TEST(ConformanceCheck, ValuesWithinOnnxsToleranceAreAPass) {
  const Tensor expected = Floats("y", {2, 2}, {1.0f, 2.0f, -3.0f, 0.0f});
  const Tensor got = Floats("y", {2, 2}, {1.0005f, 2.001f, -3.002f, 0.0f});
  const OutputVerdict verdict = CompareOutput(got, expected, {1e-3, 1e-7});
  EXPECT_TRUE(verdict.pass) << verdict.detail;
}

TEST(ConformanceCheck, APlantedWrongValueIsCaughtWithWhereAndByHowMuch) {
  const Tensor expected = Floats("y", {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor mutant = expected;
  mutant.as<float>()[4] = 5.5f;  // [1,1] off by 0.5
  const OutputVerdict verdict = CompareOutput(mutant, expected, {1e-3, 1e-7});
  EXPECT_FALSE(verdict.pass);
  ASSERT_TRUE(verdict.max_error.has_value());
  EXPECT_NEAR(*verdict.max_error, 0.5, 1e-6);
  EXPECT_NE(verdict.detail.find("output 'y': 1 of 6 values outside the tolerance; the worst at [1x1] is 5.5 where "
                                "ONNX expects 5"),
            std::string::npos)
      << verdict.detail;
  // Just outside the tolerance is outside: 1e-3 relative of 5 is 0.005.
  mutant.as<float>()[4] = 5.0052f;
  EXPECT_FALSE(CompareOutput(mutant, expected, {1e-3, 1e-7}).pass);
  mutant.as<float>()[4] = 5.0048f;
  EXPECT_TRUE(CompareOutput(mutant, expected, {1e-3, 1e-7}).pass);
}

TEST(ConformanceCheck, IntegersAreExact) {
  EXPECT_TRUE(CompareOutput(Int64s("i", {1, 2, 3}), Int64s("i", {1, 2, 3}), {1e-3, 1e-7}).pass);
  const OutputVerdict off = CompareOutput(Int64s("i", {1, 2, 4}), Int64s("i", {1, 2, 3}), {1, 1});
  EXPECT_FALSE(off.pass);
  EXPECT_NE(off.detail.find("(int64: exact)"), std::string::npos) << off.detail;
}

TEST(ConformanceCheck, NanOnlyWhereNanIsExpected) {
  const float nan = std::nanf("");
  EXPECT_TRUE(CompareOutput(Floats("y", {2}, {nan, 1}), Floats("y", {2}, {nan, 1}), {1e-3, 1e-7}).pass);
  EXPECT_FALSE(CompareOutput(Floats("y", {2}, {0, 1}), Floats("y", {2}, {nan, 1}), {1e-3, 1e-7}).pass);
  EXPECT_FALSE(CompareOutput(Floats("y", {2}, {nan, 1}), Floats("y", {2}, {0, 1}), {1e-3, 1e-7}).pass);
  EXPECT_FALSE(CompareOutput(Floats("y", {1}, {-INFINITY}), Floats("y", {1}, {INFINITY}), {1e-3, 1e-7}).pass);
}

TEST(ConformanceCheck, AnotherShapeOrTypeIsWrongWhateverTheValues) {
  const OutputVerdict shape = CompareOutput(Floats("y", {4}, {1, 2, 3, 4}), Floats("y", {2, 2}, {1, 2, 3, 4}), {});
  EXPECT_FALSE(shape.pass);
  EXPECT_NE(shape.detail.find("has shape [4] where ONNX expects [2x2]"), std::string::npos) << shape.detail;
  const OutputVerdict type = CompareOutput(Int64s("y", {1}), Floats("y", {1}, {1}), {});
  EXPECT_FALSE(type.pass);
  EXPECT_NE(type.detail.find("is int64 where ONNX expects float32"), std::string::npos) << type.detail;
}

TEST(ConformanceCheck, OutputsMatchByNameAndAMissingOneFails) {
  const std::vector<Tensor> expected = {Floats("a", {1}, {1}), Floats("b", {1}, {2})};
  EXPECT_TRUE(CompareOutputs({Floats("b", {1}, {2}), Floats("a", {1}, {1})}, expected, {}).pass);
  const OutputVerdict missing = CompareOutputs({Floats("a", {1}, {1})}, expected, {});
  EXPECT_FALSE(missing.pass);
  EXPECT_NE(missing.detail.find("gave 1 outputs where ONNX expects 2"), std::string::npos) << missing.detail;
}

TEST(ConformanceCheck, Float16GetsAtLeastItsOwnPrecision) {
  const ConformanceTolerance half = ToleranceFor(DType::kFloat16, {1e-5, 1e-7});
  EXPECT_DOUBLE_EQ(half.rtol, 1e-3);
  EXPECT_DOUBLE_EQ(half.atol, 1e-3);
  const ConformanceTolerance exact = ToleranceFor(DType::kInt32, {1e-3, 1e-7});
  EXPECT_EQ(exact.rtol, 0);
}

}  // namespace
}  // namespace edgebench
