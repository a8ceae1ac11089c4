#include "diagnose/token_drift.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace edgebench {
namespace {

TEST(TokenDrift, LogSoftmaxMatchesTheDefinitionAndSurvivesLargeLogits) {
  const std::vector<float> logits = {std::log(3.0f), 0.0f};
  const std::vector<double> log_p = LogSoftmax(logits);
  EXPECT_NEAR(log_p[0], std::log(0.75), 1e-7);
  EXPECT_NEAR(log_p[1], std::log(0.25), 1e-7);
  // exp(1000) overflows a double; subtracting the largest logit first does not.
  const std::vector<double> large = LogSoftmax(std::vector<float>{1000.0f, 1000.0f});
  EXPECT_NEAR(large[0], std::log(0.5), 1e-12);
  EXPECT_NEAR(large[1], std::log(0.5), 1e-12);
}

TEST(TokenDrift, IdenticalDistributionsHaveNoDivergence) {
  const std::vector<float> logits = {0.5f, -3.0f, 2.25f, 1000.0f, -1000.0f};
  auto c = CompareTokenLogits(logits, logits, 2).take();
  EXPECT_EQ(c.kl_divergence, 0.0);
  EXPECT_TRUE(c.same_top);
  EXPECT_EQ(c.reference_top, 3);
  EXPECT_EQ(c.delta_p, 0.0);

  TokenDriftAccumulator all;
  for (int i = 0; i < 20; ++i) all.Add(c);
  const TokenDriftSummary s = all.Summary();
  EXPECT_EQ(s.positions, 20);
  EXPECT_EQ(s.mean_kld.value, 0.0);
  EXPECT_EQ(s.mean_kld.uncertainty, 0.0);
  EXPECT_EQ(s.max_kld, 0.0);
  EXPECT_EQ(s.same_top.value, 1.0);
  EXPECT_EQ(s.same_top.uncertainty, 0.0);
  EXPECT_EQ(s.rms_delta_p.value, 0.0);
}

TEST(TokenDrift, TwoTokenCaseByHand) {
  // Reference p = (1/2, 1/2); candidate q = (3/4, 1/4).
  // KL(p || q) = 1/2 ln((1/2)/(3/4)) + 1/2 ln((1/2)/(1/4)) = 1/2 ln(4/3).
  const std::vector<float> reference = {0.0f, 0.0f};
  const std::vector<float> candidate = {std::log(3.0f), 0.0f};
  auto c = CompareTokenLogits(reference, candidate, 1).take();
  EXPECT_NEAR(c.kl_divergence, 0.5 * std::log(4.0 / 3.0), 1e-7);
  EXPECT_TRUE(c.same_top);  // the reference's tie goes to the lower index, as the candidate's top
  EXPECT_NEAR(c.delta_p, 0.25 - 0.5, 1e-7);  // the next token, 1: q - p

  // p = (0.9, 0.1), q = (0.1, 0.9): KL = 0.9 ln 9 + 0.1 ln(1/9) = 0.8 ln 9; the tops differ.
  auto swapped = CompareTokenLogits(std::vector<float>{std::log(9.0f), 0.0f},
                                    std::vector<float>{0.0f, std::log(9.0f)}, 0).take();
  EXPECT_NEAR(swapped.kl_divergence, 0.8 * std::log(9.0), 1e-6);
  EXPECT_FALSE(swapped.same_top);
  EXPECT_EQ(swapped.reference_top, 0);
  EXPECT_EQ(swapped.candidate_top, 1);
  EXPECT_NEAR(swapped.delta_p, 0.1 - 0.9, 1e-6);
}

TEST(TokenDrift, RejectsMismatchedOrBrokenLogits) {
  const std::vector<float> two = {0.0f, 1.0f};
  const std::vector<float> three = {0.0f, 1.0f, 2.0f};
  auto sizes = CompareTokenLogits(two, three, 0);
  ASSERT_FALSE(sizes.ok());
  EXPECT_NE(sizes.error().find("same vocabulary"), std::string::npos) << sizes.error();
  EXPECT_FALSE(CompareTokenLogits(two, two, 2).ok());
  EXPECT_FALSE(CompareTokenLogits(two, two, -1).ok());
  const std::vector<float> nan = {0.0f, std::numeric_limits<float>::quiet_NaN()};
  auto broken = CompareTokenLogits(two, nan, 0);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().find("candidate logit of token 1"), std::string::npos) << broken.error();
}

TEST(TokenDrift, SummaryStatisticsByHand) {
  // KLDs 0, 1, ..., 10: mean 5, variance 385/11 - 25 = 10, uncertainty sqrt(10 / 10) = 1. Five of the eleven keep the top token; every Δp is -0.1.
  TokenDriftAccumulator all;
  for (int i = 0; i <= 10; ++i) {
    TokenComparison c;
    c.kl_divergence = i;
    c.same_top = i < 5;
    c.delta_p = -0.1;
    all.Add(c);
  }
  const TokenDriftSummary s = all.Summary();
  EXPECT_EQ(s.positions, 11);
  EXPECT_DOUBLE_EQ(s.mean_kld.value, 5.0);
  EXPECT_NEAR(s.mean_kld.uncertainty, 1.0, 1e-12);
  EXPECT_EQ(s.max_kld, 10.0);
  EXPECT_EQ(s.min_kld, 0.0);
  EXPECT_DOUBLE_EQ(s.median_kld, 5.0);
  ASSERT_EQ(s.kld_percentiles.size(), std::size(kKldPercents));
  EXPECT_EQ(s.kld_percentiles[0].percent, 99.9);
  EXPECT_NEAR(s.kld_percentiles[0].kld, 9.99, 1e-12);  // 0.999 x 10, between 9 and 10
  EXPECT_NEAR(s.kld_percentiles[1].kld, 9.9, 1e-12);
  EXPECT_NEAR(s.kld_percentiles[8].kld, 0.01, 1e-12);
  const double p = 5.0 / 11.0;
  EXPECT_NEAR(s.same_top.value, p, 1e-12);
  EXPECT_NEAR(s.same_top.uncertainty, std::sqrt(p * (1 - p) / 10), 1e-12);
  EXPECT_NEAR(s.mean_delta_p.value, -0.1, 1e-12);
  EXPECT_NEAR(s.rms_delta_p.value, 0.1, 1e-12);
  EXPECT_NEAR(s.rms_delta_p.uncertainty, 0.0, 1e-9);  // every Δp² is the same
  EXPECT_NEAR(s.max_abs_delta_p, 0.1, 1e-12);
}

TEST(TokenDrift, TenPositionsOrFewerHaveNoUncertainty) {
  // llama-perplexity gives no standard error below 11 values.
  const ValueWithUncertainty few = MeanWithUncertainty(45, 285, 10);  // 0..9
  EXPECT_DOUBLE_EQ(few.value, 4.5);
  EXPECT_EQ(few.uncertainty, 0.0);
  EXPECT_EQ(MeanWithUncertainty(0, 0, 0).value, 0.0);
}

TEST(TokenDrift, EvenCountMedianIsTheMeanOfTheMiddleTwo) {
  EXPECT_DOUBLE_EQ(InterpolatedPercentile({1, 2, 4, 8}, 50), 3.0);
  EXPECT_DOUBLE_EQ(InterpolatedPercentile({1, 2, 4, 8}, 100), 8.0);
  EXPECT_DOUBLE_EQ(InterpolatedPercentile({1, 2, 4, 8}, 0), 1.0);
  EXPECT_EQ(InterpolatedPercentile({}, 50), 0.0);
}

TEST(TokenDrift, MergingEqualsAddingInOnePlace) {
  TokenDriftAccumulator one;
  TokenDriftAccumulator first;
  TokenDriftAccumulator second;
  for (int i = 0; i < 30; ++i) {
    TokenComparison c;
    c.kl_divergence = 0.01 * i * i;
    c.same_top = i % 3 != 0;
    c.delta_p = (i % 7 - 3) * 0.02;
    one.Add(c);
    (i < 12 ? first : second).Add(c);
  }
  first.Merge(second);
  const TokenDriftSummary a = one.Summary();
  const TokenDriftSummary b = first.Summary();
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_DOUBLE_EQ(a.mean_kld.value, b.mean_kld.value);
  EXPECT_DOUBLE_EQ(a.mean_kld.uncertainty, b.mean_kld.uncertainty);
  EXPECT_DOUBLE_EQ(a.kld_percentiles[1].kld, b.kld_percentiles[1].kld);
  EXPECT_DOUBLE_EQ(a.same_top.value, b.same_top.value);
  EXPECT_DOUBLE_EQ(a.rms_delta_p.value, b.rms_delta_p.value);
  EXPECT_GT(a.mean_kld.uncertainty, 0.0);
  EXPECT_GT(a.rms_delta_p.uncertainty, 0.0);
}

TEST(TokenDrift, NoPositionsGiveZeros) {
  const TokenDriftSummary s = TokenDriftAccumulator().Summary();
  EXPECT_EQ(s.positions, 0);
  EXPECT_EQ(s.mean_kld.value, 0.0);
  EXPECT_EQ(s.kld_percentiles.size(), std::size(kKldPercents));
}

}  // namespace
}  // namespace edgebench
