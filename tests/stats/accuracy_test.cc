#include "stats/accuracy.h"

#include <gtest/gtest.h>


namespace edgebench {
namespace {

TEST(Wilson, KnownValues) {
  // Wilson score intervals at 95% (z = 1.959964), e.g. from R's binom::binom.wilson.
  Proportion p = WilsonInterval(81, 263);
  EXPECT_NEAR(p.value, 0.307985, 1e-6);
  EXPECT_NEAR(p.low, 0.255289, 1e-5);
  EXPECT_NEAR(p.high, 0.366210, 1e-5);
  p = WilsonInterval(50, 100);
  EXPECT_NEAR(p.low, 0.403832, 1e-5);
  EXPECT_NEAR(p.high, 0.596168, 1e-5);
  // At the ends the interval does not collapse to a point.
  p = WilsonInterval(0, 10);
  EXPECT_EQ(p.low, 0);
  EXPECT_NEAR(p.high, 0.277533, 1e-5);
  p = WilsonInterval(10, 10);
  EXPECT_NEAR(p.low, 0.722467, 1e-5);
  EXPECT_EQ(p.high, 1);
  p = WilsonInterval(749, 1000);
  EXPECT_NEAR(p.low, 0.721208, 1e-5);
  EXPECT_NEAR(p.high, 0.774886, 1e-5);
  p = WilsonInterval(0, 0);
  EXPECT_EQ(p.low, 0);
  EXPECT_EQ(p.high, 1);
}

TEST(PerClass, CountsEachClassIncludingEmptyOnes) {
  const std::vector<int32_t> labels = {0, 0, 1, 2, 2, 2};
  const std::vector<int32_t> predicted = {0, 1, 1, 2, -1, 0};
  auto per_class = PerClassAccuracy(labels, predicted, 4, {"zero", "one"});
  ASSERT_EQ(per_class.size(), 4u);
  EXPECT_EQ(per_class[0].name, "zero");
  EXPECT_EQ(per_class[0].images, 2);
  EXPECT_EQ(per_class[0].correct, 1);
  EXPECT_DOUBLE_EQ(per_class[0].top1, 0.5);
  EXPECT_EQ(per_class[1].correct, 1);
  EXPECT_EQ(per_class[2].name, "");
  EXPECT_EQ(per_class[2].images, 3);
  EXPECT_EQ(per_class[2].correct, 1);
  EXPECT_EQ(per_class[3].images, 0);
  EXPECT_EQ(per_class[3].top1, 0);
  int64_t images = 0;
  for (const auto& c : per_class) images += c.images;
  EXPECT_EQ(images, 6);
}

TEST(TopClasses, BestFirstTiesByIndexNanLast) {
  const float scores[] = {0.1f, 0.9f, std::nanf(""), 0.9f, 0.5f, -1.0f};
  EXPECT_EQ(TopClasses(scores, 6, 5), (std::vector<int32_t>{1, 3, 4, 0, 5}));
  EXPECT_EQ(TopClasses(scores, 6, 1), (std::vector<int32_t>{1}));
  EXPECT_EQ(TopClasses(scores, 2, 5), (std::vector<int32_t>{1, 0}));
}

}  // namespace
}  // namespace edgebench
