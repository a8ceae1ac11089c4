#include "diagnose/agreement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace edgebench {
namespace {

Tensor Floats(std::vector<float> values, std::vector<int64_t> shape = {}) {
  Tensor t{"out", DType::kFloat32, shape.empty() ? std::vector<int64_t>{static_cast<int64_t>(values.size())} : shape, {}};
  t.data.resize(values.size() * 4);
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());  // never memcpy(nullptr)
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

TEST(Agreement, PairsByNameWhenEveryReferenceNameIsThere) {
  // Same shapes, other order: by position would pair a with b; the names pair them right.
  Tensor a = Floats({1, 2}, {1, 2}), b = Floats({3, 4}, {1, 2});
  a.name = "regressors";
  b.name = "classificators";
  Tensor extra = Floats({5}, {1});
  extra.name = "extra";
  auto pairs = PairOutputs({a, b}, {b, extra, a});
  ASSERT_TRUE(pairs.ok()) << pairs.error();
  EXPECT_EQ(pairs.value()[0], (std::pair<size_t, size_t>{0, 2}));
  EXPECT_EQ(pairs.value()[1], (std::pair<size_t, size_t>{1, 0}));
  // One name missing: position and shape as before.
  b.name = "scores";
  auto by_position = PairOutputs({a, Floats({3, 4}, {1, 2})}, {b, a});
  ASSERT_TRUE(by_position.ok());
  EXPECT_EQ(by_position.value()[0], (std::pair<size_t, size_t>{0, 0}));
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

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Agreement, EmptyOutputsAreAFailureNamingTheOutputAndBothShapes) {
  // Zero elements on both sides once gave cosine 1 and SQNR inf: a pass that compared nothing.
  Tensor empty_ref = Floats({}, {1, 0});
  empty_ref.name = "boxes";
  auto both_empty = CompareOutput(empty_ref, Floats({}, {0, 4}));
  ASSERT_FALSE(both_empty.ok());
  EXPECT_TRUE(Contains(both_empty.error(), "'boxes'")) << both_empty.error();
  EXPECT_TRUE(Contains(both_empty.error(), "[1x0]")) << both_empty.error();
  EXPECT_TRUE(Contains(both_empty.error(), "[0x4]")) << both_empty.error();
  EXPECT_TRUE(Contains(both_empty.error(), "no elements")) << both_empty.error();
  auto one_empty = CompareOutput(Floats({1, 2}, {1, 2}), Floats({}, {1, 0}));
  ASSERT_FALSE(one_empty.ok());
  EXPECT_TRUE(Contains(one_empty.error(), "[1x0]")) << one_empty.error();
}

TEST(Agreement, MismatchedElementCountsNameBothShapes) {
  auto a = CompareOutput(Floats({1, 2}, {1, 2}), Floats({1, 2, 3}, {3, 1}));
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(Contains(a.error(), "[1x2]")) << a.error();
  EXPECT_TRUE(Contains(a.error(), "[3x1]")) << a.error();
  EXPECT_TRUE(Contains(a.error(), "2 elements")) << a.error();
  EXPECT_TRUE(Contains(a.error(), "3")) << a.error();
}

TEST(Agreement, NaNInTheComparedOutputFailsEvenWithoutTolerances) {
  Tensor ref = Floats({1, 2, 3});
  ref.name = "logits";
  auto a = CompareOutput(ref, Floats({1, kNaN, kNaN})).take();
  EXPECT_TRUE(std::isnan(a.max_abs_error)) << a.max_abs_error;  // not skipped through std::max
  EXPECT_TRUE(std::isnan(a.mean_abs_error));
  EXPECT_EQ(a.reference_nonfinite, 0);
  EXPECT_EQ(a.other_nonfinite, 2);
  CheckTolerances(a, Tolerances{});
  ASSERT_FALSE(a.violations.empty());
  EXPECT_TRUE(Contains(a.violations[0], "'logits'")) << a.violations[0];
  EXPECT_TRUE(Contains(a.violations[0], "2 non-finite values in the compared output")) << a.violations[0];
  EXPECT_FALSE(Contains(a.violations[0], "in the reference")) << a.violations[0];
}

TEST(Agreement, InfinityInTheReferenceFailsAndIsCountedOnItsSide) {
  // inf - inf is NaN and inf/inf cosine is NaN: neither may read as agreement.
  auto a = CompareOutput(Floats({1, kInf, 3}), Floats({1, kInf, 3})).take();
  EXPECT_EQ(a.reference_nonfinite, 1);
  EXPECT_EQ(a.other_nonfinite, 1);
  CheckTolerances(a, Tolerances{1.0, 0.9, 10.0});
  ASSERT_FALSE(a.violations.empty());
  EXPECT_TRUE(Contains(a.violations[0], "1 non-finite value in the reference")) << a.violations[0];
  EXPECT_TRUE(Contains(a.violations[0], "1 in the compared output")) << a.violations[0];
}

TEST(Agreement, ANaNMetricIsNeverAPass) {
  OutputAgreement a;
  a.output = "out";
  a.cosine = std::numeric_limits<double>::quiet_NaN();
  a.sqnr_db = 40;
  CheckTolerances(a, Tolerances{});  // no tolerance asked for the cosine, still not a pass
  ASSERT_EQ(a.violations.size(), 1u);
  EXPECT_TRUE(Contains(a.violations[0], "cosine is NaN")) << a.violations[0];
  CheckTolerances(a, Tolerances{std::nullopt, 0.5, std::nullopt});
  ASSERT_EQ(a.violations.size(), 1u);
  EXPECT_TRUE(Contains(a.violations[0], "cosine nan < 0.500000")) << a.violations[0];
  OutputAgreement error;
  error.max_abs_error = std::numeric_limits<double>::quiet_NaN();
  CheckTolerances(error, Tolerances{1.0, std::nullopt, std::nullopt});
  ASSERT_EQ(error.violations.size(), 1u);
  EXPECT_TRUE(Contains(error.violations[0], "max abs error nan > 1")) << error.violations[0];
}

TEST(Agreement, TopKIsNotReportedForNaNScores) {
  // A NaN breaks the ordering top-k sorts by: no top-1/top-5 claim either way.
  auto a = CompareOutput(Floats({0.1f, kNaN, 0.3f, 0.2f, 0.5f, 0.0f}, {1, 6}),
                         Floats({0.1f, 0.9f, 0.3f, 0.2f, 0.5f, 0.0f}, {1, 6})).take();
  EXPECT_FALSE(a.top1_agrees.has_value());
  EXPECT_FALSE(a.top5_overlap.has_value());
  auto b = CompareOutput(Floats({0.1f, 0.9f, 0.3f, 0.2f, 0.5f, 0.0f}, {1, 6}),
                         Floats({kNaN, kNaN, kNaN, kNaN, kNaN, kNaN}, {1, 6})).take();
  EXPECT_FALSE(b.top1_agrees.has_value());
  EXPECT_FALSE(b.top5_overlap.has_value());
  CheckTolerances(b, Tolerances{});
  EXPECT_FALSE(b.violations.empty());
}

TEST(Agreement, NoOutputsCannotBePaired) {
  auto pairs = PairOutputs({}, {});
  ASSERT_FALSE(pairs.ok());
  EXPECT_TRUE(Contains(pairs.error(), "no outputs")) << pairs.error();
}

TEST(Agreement, ASignFlipHasCosineMinusOneAndFailsTheTolerance) {
  auto a = CompareOutput(Floats({1, 2, 3}), Floats({-1, -2, -3}));
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_DOUBLE_EQ(a.value().cosine, -1.0);
  CheckTolerances(a.value(), Tolerances{std::nullopt, 0.999, std::nullopt});
  EXPECT_FALSE(a.value().violations.empty());
}

}  // namespace
}  // namespace edgebench
