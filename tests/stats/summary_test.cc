#include "stats/summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::OneTo;

TEST(Percentile, NearestRankOnOneToHundred) {
  const auto x = OneTo(100);
  EXPECT_EQ(NearestRankPercentile(x, 0.50), 50);
  EXPECT_EQ(NearestRankPercentile(x, 0.90), 90);
  EXPECT_EQ(NearestRankPercentile(x, 0.95), 95);
  EXPECT_EQ(NearestRankPercentile(x, 0.99), 99);
  EXPECT_EQ(NearestRankPercentile(x, 0.999), std::nullopt);  // needs 1000 samples
}

TEST(Percentile, RoundsRankUp) {
  const auto x = OneTo(1000);
  EXPECT_EQ(NearestRankPercentile(x, 0.999), 999);
  const std::vector<int64_t> seven = {10, 20, 30, 40, 50, 60, 70};
  EXPECT_EQ(NearestRankPercentile(seven, 0.50), 40);  // ceil(3.5) = 4th
}

TEST(Percentile, AbsentWithTooFewSamples) {
  const auto x = OneTo(99);
  EXPECT_EQ(NearestRankPercentile(x, 0.99), std::nullopt);
  EXPECT_EQ(NearestRankPercentile(x, 0.95), 95);  // ceil(94.05) = 95
  EXPECT_EQ(NearestRankPercentile(OneTo(19), 0.95), std::nullopt);
  EXPECT_EQ(NearestRankPercentile(OneTo(20), 0.95), 19);
  EXPECT_EQ(NearestRankPercentile(OneTo(1), 0.50), std::nullopt);
  EXPECT_EQ(NearestRankPercentile(OneTo(2), 0.50), 1);
  EXPECT_EQ(NearestRankPercentile({}, 0.50), std::nullopt);
}

TEST(Percentile, SamplesNeeded) {
  EXPECT_EQ(SamplesNeededFor(0.50), 2);
  EXPECT_EQ(SamplesNeededFor(0.90), 10);
  EXPECT_EQ(SamplesNeededFor(0.95), 20);
  EXPECT_EQ(SamplesNeededFor(0.99), 100);
  EXPECT_EQ(SamplesNeededFor(0.999), 1000);
  EXPECT_EQ(PercentileName(0.999), "p99.9");
  EXPECT_EQ(PercentileName(0.5), "p50");
}

TEST(Summary, ExactMomentsAndThroughput) {
  const LatencySummary s = Summarize({2, 4, 4, 4, 5, 5, 7, 9}, 2'000'000'000);
  EXPECT_EQ(s.count, 8);
  EXPECT_EQ(s.min_ns, 2);
  EXPECT_EQ(s.max_ns, 9);
  EXPECT_DOUBLE_EQ(s.mean_ns, 5.0);
  EXPECT_DOUBLE_EQ(s.stddev_ns, std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(s.cv, std::sqrt(32.0 / 7.0) / 5.0);
  EXPECT_DOUBLE_EQ(s.throughput_qps, 4.0);
  EXPECT_EQ(s.Percentile(0.50), 4);
  EXPECT_EQ(s.Percentile(0.90), std::nullopt);
}

TEST(Summary, UnsortedInputIsSorted) {
  const LatencySummary s = Summarize({9, 1, 5, 3, 7, 2, 8, 4, 6, 10}, 0);
  EXPECT_EQ(s.Percentile(0.50), 5);
  EXPECT_EQ(s.Percentile(0.90), 9);
  EXPECT_EQ(s.throughput_qps, 0.0);
}

TEST(Settling, FlatSeriesSettlesAtQueryZero) {
  const std::vector<int64_t> flat(30, 100);
  const auto s = ComputeSettling(flat, flat);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->query_index, 0);
  EXPECT_EQ(s->time_ns, 0);
}

TEST(Settling, SlowStartSettlesWhenRollingMedianEntersBand) {
  // Warmup: 8 slow queries (200) then fast ones (100); steady state all 100.
  std::vector<int64_t> warmup(8, 200);
  warmup.resize(20, 100);
  const std::vector<int64_t> measured(50, 100);
  const auto s = ComputeSettling(warmup, measured);
  ASSERT_TRUE(s.has_value());
  // Rolling median over the last 10 queries at query i (window {i-9..i}): at i = 12 the window
  // holds queries 3..12 = five 200s and five 100s, median 150 (out); at i = 13 it holds four
  // 200s and six 100s, median 100 (in) and stays in.
  EXPECT_EQ(s->query_index, 13);
  EXPECT_EQ(s->time_ns, 8 * 200 + 5 * 100);
}

TEST(Settling, NeverSettlesWhenTheEndIsOutsideTheBand) {
  // 60 queries of 100 then 30 of 1000: the steady median is 100, but the last rolling
  // medians are 1000, so latency never settled.
  std::vector<int64_t> measured(60, 100);
  measured.insert(measured.end(), 30, 1000);
  EXPECT_FALSE(ComputeSettling({}, measured).has_value());
}

}  // namespace
}  // namespace edgebench
