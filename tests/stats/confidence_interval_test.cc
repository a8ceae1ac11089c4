// The race's intervals: coverage on samples of known distribution, and the edges.
#include "stats/confidence_interval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace edgebench {
namespace {

TEST(ConfidenceInterval, BinomialCdfMatchesDirectSums) {
  // P(Bin(10, 0.3) <= 2) = 0.3827827864
  EXPECT_NEAR(BinomialCdf(10, 0.3, 2), 0.3827827864, 1e-9);
  EXPECT_NEAR(BinomialCdf(10, 0.3, 10), 1.0, 0);
  EXPECT_EQ(BinomialCdf(10, 0.3, -1), 0.0);
  // P(Bin(1000, 0.99) <= 999) = 1 - 0.99^1000
  EXPECT_NEAR(BinomialCdf(1000, 0.99, 999), 1 - std::pow(0.99, 1000), 1e-12);
}

TEST(ConfidenceInterval, TooFewSamplesLeaveAP99Unbounded) {
  std::vector<int64_t> sorted(100);
  for (int i = 0; i < 100; ++i) sorted[i] = i + 1;
  const Interval i = QuantileInterval(sorted, 0.99, 0.05);
  EXPECT_EQ(i.estimate, 99);
  EXPECT_TRUE(std::isinf(i.high)) << "the true p99 may lie above all 100 samples";
  EXPECT_TRUE(std::isfinite(i.low));
  EXPECT_EQ(QuantileIntervalMinSamples(0.99, 0.05), 368);
  std::vector<int64_t> enough(368);
  for (int i = 0; i < 368; ++i) enough[i] = i;
  EXPECT_TRUE(QuantileInterval(enough, 0.99, 0.05).Bounded());
  std::vector<int64_t> one_short(367);
  EXPECT_FALSE(QuantileInterval(one_short, 0.99, 0.05).Bounded());
  const Interval none = QuantileInterval({}, 0.5, 0.05);
  EXPECT_TRUE(std::isnan(none.estimate));
}

// Over many samples of an exponential latency (a long tail), the 95% interval on p50 and p99
// holds the true percentile at least 95% of the time (up to the count's own noise).
TEST(ConfidenceInterval, QuantileIntervalsCoverTheTruePercentile) {
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> exponential(1.0 / 1000);
  for (double q : {0.5, 0.99}) {
    const double truth = -1000 * std::log(1 - q) + 5000;
    int covered = 0;
    constexpr int kTrials = 1000;
    for (int t = 0; t < kTrials; ++t) {
      std::vector<int64_t> samples(800);
      for (auto& s : samples) s = 5000 + static_cast<int64_t>(exponential(rng));
      std::sort(samples.begin(), samples.end());
      const Interval i = QuantileInterval(samples, q, 0.05);
      covered += i.low <= truth && truth <= i.high;
    }
    // At least 95% of 1000, less about three standard deviations of the count (7).
    EXPECT_GE(covered, 930) << "p" << q * 100;
  }
}

TEST(ConfidenceInterval, MeanIntervalIsStudentsT) {
  const Interval i = MeanInterval({1, 2, 3, 4, 5}, 0.05);
  EXPECT_DOUBLE_EQ(i.estimate, 3);
  // s = 1.5811, se = 0.7071, t(0.05, 4) = 2.776
  EXPECT_NEAR(i.high - 3, 2.776445 * 0.7071068, 1e-4);
  EXPECT_NEAR(3 - i.low, i.high - 3, 1e-12);
  EXPECT_TRUE(std::isinf(MeanInterval({1}, 0.05).high));
}

}  // namespace
}  // namespace edgebench
