#include "load/batch_binding.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

Signature TwoInputs(Dim first_a, Dim first_b) {
  Signature s;
  s.inputs.push_back({"a", DType::kFloat32, {first_a, Dim::Fixed(16)}});
  s.inputs.push_back({"b", DType::kInt64, {first_b, Dim::Fixed(4)}});
  return s;
}

TEST(BindBatch, BindsTheFirstAxisOfEveryInput) {
  auto bound = BindBatch(TwoInputs(Dim::Symbol("batch"), Dim::Symbol("?")), 8, {});
  ASSERT_TRUE(bound.ok()) << bound.error();
  const ShapeBindings expected = {{"a.0", 8}, {"b.0", 8}};
  EXPECT_EQ(bound.value(), expected);
  EXPECT_EQ(ResolveInputShapes(TwoInputs(Dim::Symbol("batch"), Dim::Symbol("?")), bound.value(), nullptr).value(),
            (std::vector<std::vector<int64_t>>{{8, 16}, {8, 4}}));
}

TEST(BindBatch, AFixedBatchOfTheSameSizeIsFineAnotherIsAnError) {
  EXPECT_TRUE(BindBatch(TwoInputs(Dim::Fixed(4), Dim::Symbol("n")), 4, {}).ok());
  auto refused = BindBatch(TwoInputs(Dim::Fixed(1), Dim::Symbol("n")), 4, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("input 'a' has a fixed first axis of 1"), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("export it with a dynamic batch"), std::string::npos);
}

TEST(BindBatch, DisagreeingWithDimIsAnError) {
  auto refused = BindBatch(TwoInputs(Dim::Symbol("batch"), Dim::Symbol("?")), 8, {{"batch", 2}});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("--batch 8 and --dim batch=2 disagree"), std::string::npos) << refused.error();
  EXPECT_TRUE(BindBatch(TwoInputs(Dim::Symbol("batch"), Dim::Symbol("?")), 8, {{"batch", 8}}).ok());
}

TEST(BindBatch, ScalarsOnlyHaveNothingToBatch) {
  Signature s;
  s.inputs.push_back({"x", DType::kFloat32, {}});
  EXPECT_NE(BindBatch(s, 2, {}).error().find("no axis to batch"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
