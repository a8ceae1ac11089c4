#include "core/tensor.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

Signature TwoInputs() {
  Signature s;
  s.inputs.push_back({"ids", DType::kInt64, {Dim::Symbol("batch"), Dim::Symbol("seq")}});
  s.inputs.push_back({"image", DType::kFloat32, {Dim::Symbol("?"), Dim::Fixed(3)}});
  return s;
}

TEST(DimBinding, ParsesAndRejects) {
  ShapeBindings b;
  EXPECT_TRUE(ParseDimBinding("batch=4", b).ok());
  EXPECT_EQ(b.at("batch"), 4);
  EXPECT_FALSE(ParseDimBinding("batch", b).ok());
  EXPECT_FALSE(ParseDimBinding("batch=0", b).ok());
  EXPECT_FALSE(ParseDimBinding("batch=4x", b).ok());
  EXPECT_FALSE(ParseDimBinding("=4", b).ok());
  EXPECT_NE(ParseDimBinding("batch=-1", b).message().find("positive integer"), std::string::npos);
}

TEST(ResolveShapes, ErrorNamesEveryUnboundDimension) {
  auto r = ResolveInputShapes(TwoInputs(), {{"batch", 2}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("'seq'"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("image.0=N"), std::string::npos) << r.error();
  EXPECT_EQ(r.error().find("'batch'"), std::string::npos) << r.error();
}

TEST(ResolveShapes, BindsNamedAndUnnamedDimensions) {
  auto r = ResolveInputShapes(TwoInputs(), {{"batch", 2}, {"seq", 7}, {"image.0", 5}});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value()[0], (std::vector<int64_t>{2, 7}));
  EXPECT_EQ(r.value()[1], (std::vector<int64_t>{5, 3}));
}

TEST(Shapes, ToString) {
  EXPECT_EQ(ShapeToString(std::vector<int64_t>{1, 3, 224, 224}), "[1x3x224x224]");
  EXPECT_EQ(ShapeToString(TwoInputs().inputs[0].shape), "[batchxseq]");
  EXPECT_EQ(ElementCount({2, 3, 4}), 24);
}

}  // namespace
}  // namespace edgebench
