#include "stats/early_stopping.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::OneTo;

TEST(EarlyStopping, OddsAreTheBinomialTail) {
  // P(Binomial(64, 0.1) <= 1) = 0.9^64 + 64 * 0.1 * 0.9^63.
  const double expected = std::pow(0.9, 64) + 64 * 0.1 * std::pow(0.9, 63);
  EXPECT_NEAR(std::exp(EarlyStoppingLogOdds(0.9, 63, 1)), expected, 1e-15);
  EXPECT_NEAR(std::exp(EarlyStoppingLogOdds(0.99, 459, 0)), std::pow(0.99, 459), 1e-15);
  EXPECT_EQ(EarlyStoppingLogOdds(0.99, 0, 5), 0.0);  // no passing query: certain
  // Large counts stay finite: 0.99^1e6 underflows a double, its logarithm does not.
  const double log_odds = EarlyStoppingLogOdds(0.99, 1'000'000, 10'000);
  EXPECT_TRUE(std::isfinite(log_odds));
  EXPECT_LT(log_odds, 0.0);
}

TEST(EarlyStopping, SingleStreamMinimumsAreLoadGens) {
  // LoadGen's SingleStream/MultiStream minimum is h(1) + 1 (t = 1: the estimate's own query
  // counts as over the bound); these are the rules' 64 / 662 / 6,636.
  EXPECT_EQ(EarlyStoppingMinPassing(0.90, 0.99, 1), 63);
  EXPECT_EQ(EarlyStoppingMinQueries(0.90, 0.99, 1), 64);
  EXPECT_EQ(EarlyStoppingMinQueries(0.99, 0.99, 1), 662);
  EXPECT_EQ(EarlyStoppingMinQueries(0.999, 0.99, 1), 6636);
  EXPECT_EQ(EarlyStoppingMinQueriesForEstimate(0.90, 0.99), 64);
  EXPECT_EQ(EarlyStoppingMinQueriesForEstimate(0.99, 0.99), 662);
  EXPECT_EQ(EarlyStoppingMinQueriesForEstimate(0.999, 0.99), 6636);
  // The counts are the smallest: one query fewer leaves the odds at or above 1%.
  EXPECT_GE(EarlyStoppingLogOdds(0.99, 660, 1), std::log(0.01));
  EXPECT_LT(EarlyStoppingLogOdds(0.99, 661, 1), std::log(0.01));
}

TEST(EarlyStopping, ServerMinimums) {
  EXPECT_EQ(EarlyStoppingMinQueries(0.99, 0.99, 0), 459);  // ceil(log 0.01 / log 0.99)
  EXPECT_EQ(EarlyStoppingMinQueries(0.99, 0.99, 10), 2010);
  EXPECT_EQ(EarlyStoppingMinQueries(0.99, 0.99, 100), 12571);
  EXPECT_EQ(EarlyStoppingMinQueries(0.99, 0.99, 1000), 107569);
  EXPECT_EQ(EarlyStoppingMinQueries(0.99, 0.99, 10000), 1023394);
  EXPECT_EQ(EarlyStoppingMinPassing(0.90, 0.99, 0), 44);
  EXPECT_EQ(EarlyStoppingMinQueries(0.90, 0.99, 5), 127);
  EXPECT_EQ(EarlyStoppingMinQueries(0.50, 0.99, 1), 11);
}

TEST(EarlyStopping, RejectsInvalidArguments) {
  EXPECT_EQ(EarlyStoppingMinPassing(1.0, 0.99, 0), -1);
  EXPECT_EQ(EarlyStoppingMinPassing(0.0, 0.99, 0), -1);
  EXPECT_EQ(EarlyStoppingMinPassing(0.99, 1.0, 0), -1);
  EXPECT_EQ(EarlyStoppingMinQueries(0.99, 0.99, -1), -1);
  const auto result = EarlyStoppingPercentile(OneTo(1000), 1.5, 0.99);
  EXPECT_FALSE(result.supported);
  EXPECT_NE(result.reason.find("strictly between 0 and 1"), std::string::npos);
}

TEST(EarlyStopping, PercentileNeedsTheMinimum) {
  const auto too_few = EarlyStoppingPercentile(OneTo(63), 0.90);
  EXPECT_FALSE(too_few.supported);
  EXPECT_EQ(too_few.queries, 63);
  EXPECT_EQ(too_few.queries_needed, 64);
  EXPECT_EQ(too_few.estimate_ns, std::nullopt);
  EXPECT_EQ(too_few.reason,
            "p90 with 99% confidence needs at least 64 queries for an early-stopping estimate; "
            "the run has 63 (run 1 more)");

  const auto just_enough = EarlyStoppingPercentile(OneTo(64), 0.90);
  EXPECT_TRUE(just_enough.supported);
  EXPECT_EQ(just_enough.overlatency, 1);
  EXPECT_EQ(just_enough.estimate_ns, 64);  // the max: nothing discarded
}

// LoadGen's loop in results.cc: t = 1, then for i = 2, 3, ...: stop at the first i with
// n < h(i) + i and take t = i - 1; the estimate is sorted[n - t].
std::optional<int64_t> LoadGenEstimate(const std::vector<int64_t>& sorted, double p) {
  const auto n = static_cast<int64_t>(sorted.size());
  if (n < EarlyStoppingMinQueries(p, 0.99, 1)) return std::nullopt;
  int64_t t = 1;
  for (int64_t i = 2; i <= n; ++i) {
    if (n < EarlyStoppingMinQueries(p, 0.99, i)) {
      t = i - 1;
      break;
    }
  }
  return sorted[static_cast<size_t>(n - t)];
}

TEST(EarlyStopping, EstimateDiscardsTheSlowestQueries) {
  // Pinned from an independent computation (lgamma-based binomial tails).
  EXPECT_EQ(EarlyStoppingPercentile(OneTo(100), 0.90).estimate_ns, 98);
  EXPECT_EQ(EarlyStoppingPercentile(OneTo(200), 0.90).estimate_ns, 191);
  const auto p90 = EarlyStoppingPercentile(OneTo(1000), 0.90);
  EXPECT_EQ(p90.estimate_ns, 923);
  EXPECT_EQ(p90.overlatency, 78);
  EXPECT_EQ(p90.reason,
            "p90 with 99% confidence supported by 1000 queries (at least 64 needed): the estimate "
            "923 ns is the slowest query after discarding the 77 slowest");
  EXPECT_EQ(EarlyStoppingPercentile(OneTo(1000), 0.99).estimate_ns, 999);
  // The estimate is never below the plain nearest-rank percentile (it is an upper bound).
  EXPECT_GE(*p90.estimate_ns, 900);
}

TEST(EarlyStopping, EstimateMatchesLoadGensLinearScan) {
  for (int64_t n : {64, 65, 99, 150, 333, 500, 777}) {
    const auto sorted = OneTo(n);
    EXPECT_EQ(EarlyStoppingPercentile(sorted, 0.90).estimate_ns, LoadGenEstimate(sorted, 0.90))
        << n;
  }
  for (int64_t n : {661, 662, 700, 1500}) {
    const auto sorted = OneTo(n);
    EXPECT_EQ(EarlyStoppingPercentile(sorted, 0.99).estimate_ns, LoadGenEstimate(sorted, 0.99))
        << n;
  }
}

TEST(EarlyStopping, LargeRunsStayFast) {
  // A million-query p90 run: one binomial sum per candidate t, each bounded by n (1 - p).
  const auto result = EarlyStoppingPercentile(OneTo(1'000'000), 0.90);
  ASSERT_TRUE(result.supported);
  EXPECT_EQ(result.overlatency, 99'302);  // from an independent lgamma-based computation
  EXPECT_EQ(result.estimate_ns, 900'699);
}

TEST(EarlyStopping, ServerCountsQueriesOverTheBound) {
  std::vector<int64_t> latencies(459, 1000);
  auto result = EarlyStoppingServer(latencies, 1000, 0.99);  // at the bound is within it
  EXPECT_TRUE(result.supported);
  EXPECT_EQ(result.overlatency, 0);
  EXPECT_EQ(result.queries_needed, 459);
  EXPECT_EQ(result.estimate_ns, std::nullopt);

  latencies.pop_back();
  result = EarlyStoppingServer(latencies, 1000, 0.99);
  EXPECT_FALSE(result.supported);
  EXPECT_EQ(result.queries_needed, 459);

  // 10 over the bound need 2,010 queries in all.
  std::vector<int64_t> with_slow(2009, 500);
  for (int i = 0; i < 10; ++i) with_slow[static_cast<size_t>(i * 100)] = 2000;
  result = EarlyStoppingServer(with_slow, 1000, 0.99);
  EXPECT_FALSE(result.supported);
  EXPECT_EQ(result.overlatency, 10);
  EXPECT_EQ(result.queries_needed, 2010);
  EXPECT_EQ(result.reason,
            "p99 within 1000 ns with 99% confidence not supported: 10 of 2009 queries over the "
            "bound, at least 2010 queries needed (run 1 more, all within the bound, or lower the "
            "load)");
  with_slow.push_back(1000);
  result = EarlyStoppingServer(with_slow, 1000, 0.99);
  EXPECT_TRUE(result.supported);
  EXPECT_EQ(result.reason,
            "p99 within 1000 ns with 99% confidence supported: 10 of 2010 queries over the bound, "
            "at least 2010 queries needed");
}

}  // namespace
}  // namespace edgebench
