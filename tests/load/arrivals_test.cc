#include "load/arrivals.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace edgebench {
namespace {

std::vector<int64_t> Take(PoissonArrivals& arrivals, int n) {
  std::vector<int64_t> times;
  for (int i = 0; i < n; ++i) times.push_back(arrivals.Next());
  return times;
}

TEST(PoissonArrivals, EngineIsTheStandardOne) {
  // The C++ standard fixes this value ([rand.predef]): the schedule depends on no library.
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ULL);
}

TEST(PoissonArrivals, FixedSeedGivesFixedTimes) {
  // Pinned from an independent Python implementation of mt19937_64 and the same formula.
  PoissonArrivals arrivals(1000, 42);
  EXPECT_EQ(Take(arrivals, 5), (std::vector<int64_t>{1407132, 2426096, 3821009, 3967507, 6303328}));
  PoissonArrivals other_seed(1000, 7);
  EXPECT_EQ(Take(other_seed, 3), (std::vector<int64_t>{1403991, 4385844, 4510744}));
  PoissonArrivals faster(10000, 42);  // the same draws, gaps a tenth as long
  EXPECT_EQ(Take(faster, 3), (std::vector<int64_t>{140713, 242610, 382101}));
  EXPECT_DOUBLE_EQ(faster.rate_qps(), 10000);
}

TEST(PoissonArrivals, RateDispersionAndVariation) {
  constexpr int kArrivals = 200'000;
  constexpr double kRate = 1000;  // 1 ms mean gap
  PoissonArrivals arrivals(kRate, 1);
  const std::vector<int64_t> times = Take(arrivals, kArrivals);
  for (size_t i = 1; i < times.size(); ++i) ASSERT_LE(times[i - 1], times[i]) << i;

  // Mean rate within 1% (the standard error is 1 / sqrt(200,000) = 0.22%).
  const double achieved = kArrivals * 1e9 / static_cast<double>(times.back());
  EXPECT_NEAR(achieved / kRate, 1.0, 0.01);

  // Counts per 10 ms interval (mean 10): variance / mean is 1 for a Poisson process. Over
  // ~20,000 intervals its standard error is sqrt(2 / 20,000) = 1%; the tolerance is 5%.
  constexpr int64_t kInterval = 10'000'000;
  std::vector<double> counts(static_cast<size_t>(times.back() / kInterval), 0.0);
  for (int64_t t : times) {
    const auto interval = static_cast<size_t>(t / kInterval);
    if (interval < counts.size()) counts[interval] += 1;  // the last, partial interval is left out
  }
  double mean = 0;
  for (double c : counts) mean += c;
  mean /= static_cast<double>(counts.size());
  double variance = 0;
  for (double c : counts) variance += (c - mean) * (c - mean);
  variance /= static_cast<double>(counts.size() - 1);
  EXPECT_NEAR(mean, 10.0, 0.1);
  EXPECT_NEAR(variance / mean, 1.0, 0.05);

  // Inter-arrival gaps are exponential: coefficient of variation 1 (standard error 0.3% here;
  // the tolerance is 2%).
  double gap_sum = 0;
  double gap_squares = 0;
  int64_t previous = 0;
  for (int64_t t : times) {
    const double gap = static_cast<double>(t - previous);
    gap_sum += gap;
    gap_squares += gap * gap;
    previous = t;
  }
  const double gap_mean = gap_sum / kArrivals;
  const double gap_sd = std::sqrt(gap_squares / kArrivals - gap_mean * gap_mean);
  EXPECT_NEAR(gap_sd / gap_mean, 1.0, 0.02);
}

TEST(PoissonArrivals, SeedsDiffer) {
  PoissonArrivals a(500, 1);
  PoissonArrivals b(500, 2);
  const auto first = Take(a, 100);
  const auto second = Take(b, 100);
  int equal = 0;
  for (size_t i = 0; i < first.size(); ++i) equal += first[i] == second[i];
  EXPECT_LT(equal, 5);
  PoissonArrivals again(500, 1);
  EXPECT_EQ(Take(again, 100), first);
}

TEST(PoissonArrivals, RejectsRatesThatAreNotPositive) {
  for (double rate : {0.0, -5.0, std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::infinity()}) {
    const auto made = PoissonArrivals::Make(rate, 1);
    ASSERT_FALSE(made.ok()) << rate;
    EXPECT_NE(made.error().find("positive, finite rate"), std::string::npos) << made.error();
  }
  EXPECT_EQ(PoissonArrivals::Make(-5, 1).error(),
            "Poisson arrivals need a positive, finite rate in queries per second; got -5.000000 "
            "(give the server scenario a rate, such as server:100)");
  auto made = PoissonArrivals::Make(1000, 42);
  ASSERT_TRUE(made.ok());
  EXPECT_EQ(made.value().Next(), 1407132);
  // The unchecked constructor with a bad rate never delivers an arrival.
  PoissonArrivals never(0, 1);
  EXPECT_EQ(never.Next(), std::numeric_limits<int64_t>::max());
}

}  // namespace
}  // namespace edgebench
