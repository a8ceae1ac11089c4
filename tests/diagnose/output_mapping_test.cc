#include "diagnose/output_mapping.h"

#include <gtest/gtest.h>

#include <cstring>

namespace edgebench {
namespace {

Tensor Floats(const std::string& name, std::vector<int64_t> shape, std::vector<float> values) {
  Tensor t{name, DType::kFloat32, std::move(shape), {}};
  t.data.resize(values.size() * sizeof(float));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

std::vector<float> Values(const Tensor& t) {
  return std::vector<float>(t.as<float>(), t.as<float>() + t.element_count());
}

TEST(OutputMapping, NoMappingKeepsTheOutputs) {
  auto out = ApplyOutputMapping({}, {Floats("a", {1}, {1})}, "m.onnx");
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out.value().size(), 1u);
  EXPECT_EQ(out.value()[0].name, "a");
}

TEST(OutputMapping, RenamesAndKeepsTheRest) {
  auto out = ApplyOutputMapping({{"scores", {"Identity:0"}, 0}},
                                {Floats("Identity:0", {2}, {1, 2}), Floats("other", {1}, {3})}, "m.onnx");
  ASSERT_TRUE(out.ok()) << out.error();
  ASSERT_EQ(out.value().size(), 2u);
  EXPECT_EQ(out.value()[0].name, "scores");
  EXPECT_EQ(Values(out.value()[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(out.value()[1].name, "other");
}

TEST(OutputMapping, ConcatenatesAlongTheMiddleAxis) {
  // [1,2,2] + [1,1,2] along axis 1: the BlazeFace ONNX's 512 + 384 anchors, in small.
  auto out = ApplyOutputMapping({{"regressors", {"a", "b"}, 1}},
                                {Floats("b", {1, 1, 2}, {5, 6}), Floats("a", {1, 2, 2}, {1, 2, 3, 4})}, "m.onnx");
  ASSERT_TRUE(out.ok()) << out.error();
  ASSERT_EQ(out.value().size(), 1u);
  EXPECT_EQ(out.value()[0].shape, (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(Values(out.value()[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(OutputMapping, ConcatenatesAlongTheLastAxisInterleavingRows) {
  auto out = ApplyOutputMapping({{"x", {"a", "b"}, -1}},
                                {Floats("a", {2, 1}, {1, 2}), Floats("b", {2, 2}, {3, 4, 5, 6})}, "m.onnx");
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_EQ(out.value()[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values(out.value()[0]), (std::vector<float>{1, 3, 4, 2, 5, 6}));
}

TEST(OutputMapping, ErrorsNameWhatIsWrong) {
  auto missing = ApplyOutputMapping({{"r", {"Identity_9:0"}, 0}}, {Floats("Identity:0", {1}, {1})}, "m.onnx");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("'Identity_9:0', which m.onnx does not output"), std::string::npos) << missing.error();
  EXPECT_NE(missing.error().find("'Identity:0' [1]"), std::string::npos) << missing.error();

  auto shapes = ApplyOutputMapping({{"r", {"a", "b"}, 1}},
                                   {Floats("a", {1, 2, 16}, std::vector<float>(32)),
                                    Floats("b", {1, 2, 1}, std::vector<float>(2))}, "m.onnx");
  ASSERT_FALSE(shapes.ok());
  EXPECT_NE(shapes.error().find("cannot concatenate output 'r'"), std::string::npos) << shapes.error();
  EXPECT_NE(shapes.error().find("equal sizes on every other axis"), std::string::npos) << shapes.error();

  auto axis = ApplyOutputMapping({{"r", {"a", "b"}, 3}},
                                 {Floats("a", {1, 2}, {1, 2}), Floats("b", {1, 2}, {3, 4})}, "m.onnx");
  ASSERT_FALSE(axis.ok());
  EXPECT_NE(axis.error().find("along axis 3: they have 2 axes"), std::string::npos) << axis.error();

  auto twice = ApplyOutputMapping({{"r", {"a"}, 0}, {"s", {"a"}, 0}}, {Floats("a", {1}, {1})}, "m.onnx");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().find("twice"), std::string::npos);

  auto clash = ApplyOutputMapping({{"b", {"a"}, 0}}, {Floats("a", {1}, {1}), Floats("b", {1}, {2})}, "m.onnx");
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(clash.error().find("two outputs the name 'b'"), std::string::npos) << clash.error();
}

}  // namespace
}  // namespace edgebench
