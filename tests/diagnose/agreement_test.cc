#include "diagnose/agreement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace edgebench {
namespace {

Tensor Floats(std::vector<float> values, std::vector<int64_t> shape = {}) {
  Tensor t{"out", DType::kFloat32, shape.empty() ? std::vector<int64_t>{static_cast<int64_t>(values.size())} : shape, {}};
  t.data.resize(values.size() * 4);
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

TEST(Agreement, IdenticalOutputs) {
  auto a = CompareOutput(Floats({1, 2, 3}), Floats({1, 2, 3})).take();
  EXPECT_EQ(a.max_abs_error, 0);
  EXPECT_EQ(a.mean_abs_error, 0);
  EXPECT_DOUBLE_EQ(a.cosine, 1.0);
  EXPECT_TRUE(std::isinf(a.sqnr_db) && a.sqnr_db > 0);
}

TEST(Agreement, ExactErrorsCosineAndSqnr) {
  // ref (3, 4), other (3, 5): error (0, 1).
  auto a = CompareOutput(Floats({3, 4}), Floats({3, 5})).take();
  EXPECT_DOUBLE_EQ(a.max_abs_error, 1.0);
  EXPECT_DOUBLE_EQ(a.mean_abs_error, 0.5);
  EXPECT_DOUBLE_EQ(a.cosine, (9.0 + 20.0) / (5.0 * std::sqrt(34.0)));
  EXPECT_DOUBLE_EQ(a.sqnr_db, 10.0 * std::log10(25.0 / 1.0));
}

TEST(Agreement, TopKOnScoreVectors) {
  auto same = CompareOutput(Floats({0.1f, 0.9f, 0.3f, 0.2f, 0.5f, 0.0f}, {1, 6}),
                            Floats({0.1f, 0.8f, 0.3f, 0.2f, 0.4f, 0.0f}, {1, 6})).take();
  EXPECT_EQ(same.top1_agrees, true);
  EXPECT_EQ(same.top5_overlap, 1.0);
  auto swapped = CompareOutput(Floats({0.1f, 0.9f, 0.3f, 0.2f, 0.5f, 0.0f}, {1, 6}),
                               Floats({0.1f, 0.3f, 0.9f, 0.2f, 0.5f, 0.95f}, {1, 6})).take();
  EXPECT_EQ(swapped.top1_agrees, false);
  EXPECT_DOUBLE_EQ(*swapped.top5_overlap, 0.8);  // index 0 dropped out, index 5 came in
  auto map = CompareOutput(Floats({1, 2, 3, 4}, {2, 2}), Floats({1, 2, 3, 4}, {2, 2})).take();
  EXPECT_FALSE(map.top1_agrees.has_value());
}

TEST(Agreement, MismatchedSizesAreAnError) {
  EXPECT_FALSE(CompareOutput(Floats({1, 2}), Floats({1, 2, 3})).ok());
}

TEST(Agreement, PairsByPositionThenByUniqueShape) {
  std::vector<Tensor> ref = {Floats({1, 2}, {1, 2}), Floats({1, 2, 3}, {1, 3})};
  std::vector<Tensor> swapped = {Floats({1, 2, 3}, {1, 3}), Floats({1, 2}, {1, 2})};
  auto pairs = PairOutputs(ref, swapped);
  ASSERT_TRUE(pairs.ok());
  EXPECT_EQ(pairs.value()[0], (std::pair<size_t, size_t>{0, 1}));
  EXPECT_EQ(pairs.value()[1], (std::pair<size_t, size_t>{1, 0}));
  std::vector<Tensor> ambiguous = {Floats({1, 2}, {1, 2}), Floats({1, 2}, {1, 2}), Floats({1}, {1})};
  EXPECT_FALSE(PairOutputs(ref, ambiguous).ok());
}

TEST(Agreement, TolerancesNameWhatFailed) {
  auto a = CompareOutput(Floats({3, 4}), Floats({3, 5})).take();
  CheckTolerances(a, Tolerances{0.5, 0.999, 30.0});
  ASSERT_EQ(a.violations.size(), 3u);
  EXPECT_NE(a.violations[0].find("max abs error 1 > 0.5"), std::string::npos) << a.violations[0];
  EXPECT_NE(a.violations[1].find("cosine"), std::string::npos);
  EXPECT_NE(a.violations[2].find("SQNR 14.0 dB < 30.0 dB"), std::string::npos) << a.violations[2];
  CheckTolerances(a, Tolerances{2.0, 0.9, 10.0});
  EXPECT_TRUE(a.violations.empty());
}

}  // namespace
}  // namespace edgebench
