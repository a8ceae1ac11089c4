#include "stats/significance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace edgebench {
namespace {

// Reference values computed by hand from the definition (U by counting pairs, the tie-corrected
// variance, the continuity correction), as scipy.stats.mannwhitneyu(a, b, method="asymptotic")
// gives them.
TEST(MannWhitneyU, SeparatedSamplesMatchTheHandComputation) {
  // U = 0; mean 12.5; sigma = sqrt(25 * 11 / 12) = 4.7871; z = (12.5 - 0.5) / sigma = 2.5067.
  const auto r = MannWhitneyU({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_NEAR(r.z, -2.5067182457620487, 1e-12);
  EXPECT_NEAR(r.p, 0.012185780355344818, 1e-12);
  EXPECT_FALSE(r.approximation_ok);  // 5 per side
  // Swapped: the same p, U = n1 n2 - U.
  const auto swapped = MannWhitneyU({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(swapped.u, 25);
  EXPECT_NEAR(swapped.z, 2.5067182457620487, 1e-12);
  EXPECT_NEAR(swapped.p, r.p, 1e-15);
  // A NaN is left out, not ranked.
  const auto with_nan = MannWhitneyU({1, 2, std::nan(""), 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(with_nan.u, 0);
  EXPECT_NEAR(with_nan.p, r.p, 1e-15);
}

TEST(MannWhitneyU, TiesGetMeanRanksAndCorrectTheVariance) {
  // Ties within and across the sides (2, 3 and 7): U = 18.5 by counting pairs (ties 1/2);
  // tie term 2 x (2^3 - 2) + (3^3 - 3) = 36; sigma^2 = 72 / 12 * (18 - 36 / 272).
  const auto r = MannWhitneyU({1, 2, 2, 3, 4, 8, 9, 3.5}, {2, 3, 5, 6, 7, 7, 10, 11, 12});
  EXPECT_DOUBLE_EQ(r.u, 18.5);
  EXPECT_NEAR(r.z, -1.6418731983473336, 1e-12);
  EXPECT_NEAR(r.p, 0.10061628530873337, 1e-12);
  EXPECT_TRUE(r.approximation_ok);
}

TEST(MannWhitneyU, TinySamplesAreApproximateAndSaySo) {
  // Exact p for 3 against 3 all apart is 2 / C(6, 3) = 0.1; the approximation gives 0.081.
  const auto r = MannWhitneyU({1, 2, 3}, {4, 5, 6});
  EXPECT_NEAR(r.p, 0.0808555983700523, 1e-12);
  EXPECT_FALSE(r.approximation_ok);
}

TEST(MannWhitneyU, IdenticalSamplesAndConstantsGiveOne) {
  const std::vector<double> a = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
  EXPECT_DOUBLE_EQ(MannWhitneyU(a, a).p, 1.0);
  EXPECT_DOUBLE_EQ(MannWhitneyU(a, a).z, 0.0);
  EXPECT_DOUBLE_EQ(MannWhitneyU({7, 7, 7}, {7, 7}).p, 1.0);  // no variance at all
  EXPECT_DOUBLE_EQ(MannWhitneyU({}, {1, 2}).p, 1.0);
}

// Latencies as a machine gives them: lognormal around `median_ns` with 5% spread, plus a tail
// (1% of queries 20-60% slower: a context switch, a cache flush).
std::vector<double> Latencies(std::mt19937_64& rng, int n, double median_ns, double scale = 1.0) {
  std::lognormal_distribution<double> body(std::log(median_ns), 0.05);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> samples(static_cast<size_t>(n));
  for (double& s : samples) {
    s = body(rng);
    if (unit(rng) < 0.01) s *= 1.2 + 0.4 * unit(rng);
    s = std::round(s * scale);  // whole ns, as measured
  }
  return samples;
}

TEST(MannWhitneyU, AShiftIsFound) {
  std::mt19937_64 rng(7);
  const auto base = Latencies(rng, 500, 2e6);
  const auto slower = Latencies(rng, 500, 2e6, 1.03);
  const auto r = MannWhitneyU(base, slower);
  EXPECT_LT(r.p, 1e-10);
  EXPECT_LT(r.z, 0);  // the first sample is the smaller
}

TEST(Statistic, NearestRankAndMean) {
  const std::vector<double> v = {5, 1, 4, 2, 3};
  EXPECT_DOUBLE_EQ(ComputeStatistic(v, Statistic::Percentile(0.5)), 3);
  EXPECT_DOUBLE_EQ(ComputeStatistic(v, Statistic::Percentile(0.99)), 5);
  EXPECT_DOUBLE_EQ(ComputeStatistic(v, Statistic::Percentile(0.2)), 1);
  EXPECT_DOUBLE_EQ(ComputeStatistic(v, Statistic::Mean()), 3);
  EXPECT_TRUE(std::isnan(ComputeStatistic({}, Statistic::Mean())));
  EXPECT_EQ(Statistic::Percentile(0.99).Name(), "p99");
  EXPECT_EQ(Statistic::Percentile(0.999).Name(), "p99.9");
  EXPECT_EQ(Statistic::Mean().Name(), "mean");
}

TEST(Bootstrap, IdenticalSamplesCenterOnZero) {
  std::mt19937_64 rng(1);
  const auto a = Latencies(rng, 1000, 2e6);
  const auto change = BootstrapRelativeChange(a, a, Statistic::Percentile(0.5));
  ASSERT_TRUE(change);
  EXPECT_DOUBLE_EQ(change->estimate, 0);
  EXPECT_LT(change->low, 0);
  EXPECT_GT(change->high, 0);
  EXPECT_EQ(change->resamples, 2000);
  // Seeded: the same interval again.
  const auto again = BootstrapRelativeChange(a, a, Statistic::Percentile(0.5));
  EXPECT_EQ(again->low, change->low);
  EXPECT_EQ(again->high, change->high);
}

TEST(Bootstrap, EmptyOrZeroBaseHasNoChange) {
  EXPECT_FALSE(BootstrapRelativeChange({}, {1, 2}, Statistic::Mean()));
  EXPECT_FALSE(BootstrapRelativeChange({0, 0, 0}, {1, 2}, Statistic::Percentile(0.5)));
}

// The order statistic sampled directly (Beta) has the distribution of resampling then
// selecting: compare both on a small sample by their resampled quantiles.
TEST(Bootstrap, DirectOrderStatisticMatchesExplicitResampling) {
  std::mt19937_64 rng(3);
  const auto sample = Latencies(rng, 60, 1e6);
  const std::vector<double> one = {1.0};  // base statistic 1: the ratio is the candidate's value
  for (double fraction : {0.5, 0.9}) {
    BootstrapOptions options;
    options.resamples = 20000;
    options.confidence = 0.5;  // the interquartile range of the resampled statistic
    const auto direct = BootstrapRelativeChange(one, sample, Statistic::Percentile(fraction), options);
    ASSERT_TRUE(direct);
    std::mt19937_64 draw(11);
    std::uniform_int_distribution<size_t> pick(0, sample.size() - 1);
    std::vector<double> explicit_values;
    std::vector<double> resample(sample.size());
    for (int r = 0; r < 20000; ++r) {
      for (double& v : resample) v = sample[pick(draw)];
      explicit_values.push_back(ComputeStatistic(resample, Statistic::Percentile(fraction)));
    }
    std::sort(explicit_values.begin(), explicit_values.end());
    const double q25 = explicit_values[5000];
    const double q75 = explicit_values[15000];
    // Same quantiles up to a neighbouring order statistic (the sample's values are discrete).
    std::vector<double> sorted = sample;
    std::sort(sorted.begin(), sorted.end());
    auto rank = [&](double v) { return std::lower_bound(sorted.begin(), sorted.end(), v) - sorted.begin(); };
    EXPECT_LE(std::abs(rank(direct->low + 1) - rank(q25)), 1) << fraction;
    EXPECT_LE(std::abs(rank(direct->high + 1) - rank(q75)), 1) << fraction;
  }
}

TEST(Bootstrap, IntervalCoversTheTrueRatio) {
  // Lognormal medians are exp(mu): the true p50 ratio of the two distributions is 1.05.
  int covered = 0;
  for (int trial = 0; trial < 100; ++trial) {
    std::mt19937_64 rng(100 + trial);
    std::lognormal_distribution<double> base_dist(std::log(2e6), 0.1);
    std::lognormal_distribution<double> new_dist(std::log(2e6 * 1.05), 0.1);
    std::vector<double> base(400);
    std::vector<double> candidate(400);
    for (double& v : base) v = base_dist(rng);
    for (double& v : candidate) v = new_dist(rng);
    BootstrapOptions options;
    options.resamples = 1000;
    options.seed = static_cast<uint64_t>(trial);
    const auto change = BootstrapRelativeChange(base, candidate, Statistic::Percentile(0.5), options);
    ASSERT_TRUE(change);
    if (change->low <= 0.05 && 0.05 <= change->high) ++covered;
  }
  // A 95% interval: about 95 of 100 (the percentile bootstrap of a median runs a little short).
  EXPECT_GE(covered, 88);
  EXPECT_LE(covered, 100);
}

TEST(Bootstrap, MeanOfWindows) {
  const std::vector<double> base = {100, 102, 98, 101, 99, 100};
  const std::vector<double> faster = {110, 112, 108, 111, 109, 110};
  const auto change = BootstrapRelativeChange(base, faster, Statistic::Mean());
  ASSERT_TRUE(change);
  EXPECT_NEAR(change->estimate, 0.10, 1e-12);
  EXPECT_GT(change->low, 0.07);
  EXPECT_LT(change->high, 0.13);
}

TEST(Bootstrap, LargeSamplesAreCheap) {
  // 10^6 per side: one sort each, then O(1) per resample (the test would take minutes with
  // explicit resampling).
  std::mt19937_64 rng(5);
  const auto base = Latencies(rng, 1'000'000, 2e6);
  const auto slower = Latencies(rng, 1'000'000, 2e6, 1.03);
  const auto change = BootstrapRelativeChange(base, slower, Statistic::Percentile(0.95));
  ASSERT_TRUE(change);
  EXPECT_GT(change->low, 0.02);
  EXPECT_LT(change->high, 0.04);
}

TEST(JudgeChange, CriterionsRule) {
  const RelativeChange up{0.03, 0.02, 0.04, 2000};
  const RelativeChange small{0.005, 0.002, 0.008, 2000};
  const RelativeChange straddles{0.015, 0.005, 0.025, 2000};
  const RelativeChange down{-0.03, -0.04, -0.02, 2000};
  EXPECT_EQ(JudgeChange(0.001, up, 0.01, true), ChangeVerdict::kSlower);
  EXPECT_EQ(JudgeChange(0.001, up, 0.01, false), ChangeVerdict::kFaster);  // throughput up
  EXPECT_EQ(JudgeChange(0.001, down, 0.01, true), ChangeVerdict::kFaster);
  EXPECT_EQ(JudgeChange(0.001, down, 0.01, false), ChangeVerdict::kSlower);
  EXPECT_EQ(JudgeChange(0.2, up, 0.01, true), ChangeVerdict::kNoChange);         // not significant
  EXPECT_EQ(JudgeChange(0.001, small, 0.01, true), ChangeVerdict::kNoChange);    // inside the noise
  EXPECT_EQ(JudgeChange(0.001, straddles, 0.01, true), ChangeVerdict::kNoChange);  // partly inside
  EXPECT_EQ(JudgeChange(0.001, up, 0.05, true), ChangeVerdict::kNoChange);       // a wider threshold
  EXPECT_EQ(ChangeVerdictName(ChangeVerdict::kNoChange), "no change");
}

// The case verdict compare gives a latency pair: slower when p50 or p99 is slower.
ChangeVerdict JudgeLatencies(const std::vector<double>& base, const std::vector<double>& candidate, uint64_t seed) {
  const double p = MannWhitneyU(base, candidate).p;
  BootstrapOptions options;
  options.seed = seed;
  bool slower = false;
  bool faster = false;
  for (double fraction : {0.5, 0.99}) {
    const auto change = BootstrapRelativeChange(base, candidate, Statistic::Percentile(fraction), options);
    const ChangeVerdict v = JudgeChange(p, *change, 0.01, true);
    slower = slower || v == ChangeVerdict::kSlower;
    faster = faster || v == ChangeVerdict::kFaster;
  }
  return slower ? ChangeVerdict::kSlower : faster ? ChangeVerdict::kFaster : ChangeVerdict::kNoChange;
}

// The requirement: two runs of the same configuration are "no change" in at least 19 of
// 20 seeded trials, and a 3% slowdown is "slower" in every one.
TEST(Significance, SameDistributionIsNoChangeAndThreePercentIsSlower) {
  int no_change = 0;
  int slower = 0;
  for (int trial = 0; trial < 20; ++trial) {
    std::mt19937_64 rng(1000 + trial);
    const auto run1 = Latencies(rng, 2000, 2e6);
    const auto run2 = Latencies(rng, 2000, 2e6);
    const auto run3 = Latencies(rng, 2000, 2e6, 1.03);
    if (JudgeLatencies(run1, run2, static_cast<uint64_t>(trial)) == ChangeVerdict::kNoChange) ++no_change;
    if (JudgeLatencies(run1, run3, static_cast<uint64_t>(trial)) == ChangeVerdict::kSlower) ++slower;
  }
  EXPECT_GE(no_change, 19);
  EXPECT_EQ(slower, 20);
}

// Student's t against table values (two-sided 0.05 and 0.01 critical values).
TEST(StudentT, TailsAndQuantilesMatchTheTables) {
  EXPECT_NEAR(StudentTTwoSidedP(12.7062047, 1), 0.05, 1e-6);
  EXPECT_NEAR(StudentTTwoSidedP(2.7764451, 4), 0.05, 1e-6);
  EXPECT_NEAR(StudentTTwoSidedP(4.6040949, 4), 0.01, 1e-6);
  EXPECT_NEAR(StudentTTwoSidedP(-2.7764451, 4), 0.05, 1e-6);  // two-sided: the sign does not matter
  EXPECT_NEAR(StudentTTwoSidedP(1.9599640, 1e7), 0.05, 1e-5);  // the normal's limit
  EXPECT_DOUBLE_EQ(StudentTTwoSidedP(0, 3), 1);
  EXPECT_NEAR(StudentTQuantile(0.05, 1), 12.7062047, 1e-5);
  EXPECT_NEAR(StudentTQuantile(0.05, 4), 2.7764451, 1e-6);
  EXPECT_NEAR(StudentTQuantile(0.05, 30), 2.0422725, 1e-6);
}

TEST(RunLevel, NeedsThreeRunsAndPositiveValues) {
  EXPECT_FALSE(RunLevelRelativeChange({1.0}, {1.1}));
  EXPECT_FALSE(RunLevelRelativeChange({}, {1.0, 1.1, 1.2}));
  EXPECT_FALSE(RunLevelRelativeChange({1.0, 0.0}, {1.1}));
  const auto r = RunLevelRelativeChange({10, 10}, {10});
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->change.estimate, 0);
  EXPECT_DOUBLE_EQ(r->p, 1);
  // By hand: logs of 10, 12 and of 15; pooled sd = |ln 12 - ln 10| / sqrt(2) over df 1.
  const auto h = RunLevelRelativeChange({10, 12}, {15});
  ASSERT_TRUE(h);
  const double diff = std::log(15) - (std::log(10) + std::log(12)) / 2;
  const double sd = std::fabs(std::log(12) - std::log(10)) / std::sqrt(2.0);
  const double se = sd * std::sqrt(1.0 / 2 + 1.0);
  EXPECT_NEAR(h->change.estimate, std::exp(diff) - 1, 1e-12);
  EXPECT_NEAR(h->p, StudentTTwoSidedP(diff / se, 1), 1e-12);
  EXPECT_NEAR(h->change.low, std::exp(diff - 12.7062047 * se) - 1, 1e-6);
  EXPECT_DOUBLE_EQ(h->df, 1);
}

// Runs whose medians vary 10% from run to run (a busy machine): three runs a side of one
// configuration are no change in at least 19 of 20 seeded trials, where the query-level test on
// one run a side would call most of them changed; runs twice as slow are found in 20 of 20.
TEST(RunLevel, RunToRunNoiseIsNoChangeAndALargeSlowdownIsSlower) {
  int no_change = 0, slower = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::mt19937_64 rng(seed);
    std::lognormal_distribution<double> run(std::log(10.0), 0.10);
    std::vector<double> base, same, worse;
    for (int i = 0; i < 3; ++i) base.push_back(run(rng));
    for (int i = 0; i < 3; ++i) same.push_back(run(rng));
    for (int i = 0; i < 3; ++i) worse.push_back(2.0 * run(rng));
    const auto a = RunLevelRelativeChange(base, same);
    const auto b = RunLevelRelativeChange(base, worse);
    ASSERT_TRUE(a && b);
    no_change += JudgeChange(a->p, a->change, 0.01, true) == ChangeVerdict::kNoChange;
    slower += JudgeChange(b->p, b->change, 0.01, true) == ChangeVerdict::kSlower;
  }
  EXPECT_GE(no_change, 19);
  EXPECT_EQ(slower, 20);
}

}  // namespace
}  // namespace edgebench
