#include "load/peak_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

namespace edgebench {
namespace {

// Runs the search against a system that passes exactly when passes(qps).
PeakSearch Search(double start, const std::function<bool(double)>& passes, double precision = 0.02) {
  PeakSearch search(start, precision);
  for (int step = 0; step < 1000; ++step) {
    const auto qps = search.NextRate();
    if (!qps) return search;
    search.Report(*qps, passes(*qps));
  }
  ADD_FAILURE() << "the search did not stop after 1000 steps";
  return search;
}

std::vector<double> Rates(const PeakSearch& search) {
  std::vector<double> rates;
  for (const PeakStep& step : search.steps()) rates.push_back(step.qps);
  return rates;
}

std::vector<bool> Outcomes(const PeakSearch& search) {
  std::vector<bool> outcomes;
  for (const PeakStep& step : search.steps()) outcomes.push_back(step.passed);
  return outcomes;
}

TEST(PeakSearch, DoublesThenBisects) {
  const PeakSearch search = Search(100, [](double qps) { return qps < 1000; });
  EXPECT_EQ(Rates(search), (std::vector<double>{100, 200, 400, 800, 1600, 1200, 1000, 900, 950,
                                                975, 987.5}));
  EXPECT_EQ(Outcomes(search), (std::vector<bool>{true, true, true, true, false, false, false, true,
                                                 true, true, true}));
  EXPECT_TRUE(search.done());
  EXPECT_EQ(search.Peak(), 987.5);
  EXPECT_EQ(search.NextRate(), std::nullopt);
  EXPECT_EQ(search.Explain(),
            "peak 987.5 QPS: it passed and 1000 QPS failed, 1.27% apart, within the 2% precision "
            "after 11 steps");
}

// A noisy machine: a rate fails at or below one that already passed. The search keeps its
// highest pass and goes on upward; the failure is recorded as a step but moves neither bound.
TEST(PeakSearch, AFailureAtOrBelowARateThatPassedMovesNeitherBound) {
  PeakSearch search(100);
  search.Report(100, true);
  ASSERT_EQ(search.NextRate(), 200);
  search.Report(100, false);  // the same rate, failing this time
  EXPECT_EQ(search.NextRate(), 200);
  search.Report(60, false);  // below it
  EXPECT_EQ(search.NextRate(), 200);
  EXPECT_FALSE(search.done());
  EXPECT_EQ(search.Peak(), 100);
  search.Report(200, false);
  EXPECT_EQ(search.NextRate(), 150) << "bisects between the pass and the failure above it";
  EXPECT_EQ(search.steps().size(), 4u);
}

// And a rate that passes above the lowest failing one (noise the other way) raises the pass
// and drops that failure: the search doubles again from the new pass.
TEST(PeakSearch, APassAboveAFailureRaisesThePassAndForgetsTheFailure) {
  PeakSearch search(100);
  search.Report(100, true);
  search.Report(200, false);
  ASSERT_EQ(search.NextRate(), 150);
  search.Report(250, true);
  EXPECT_EQ(search.Peak(), 250);
  EXPECT_EQ(search.NextRate(), 500);
}

TEST(PeakSearch, BoundaryRatePasses) {
  const PeakSearch search = Search(100, [](double qps) { return qps <= 1000; });
  EXPECT_EQ(Rates(search), (std::vector<double>{100, 200, 400, 800, 1600, 1200, 1000, 1100, 1050,
                                                1025, 1012.5}));
  EXPECT_EQ(search.Peak(), 1000);
}

TEST(PeakSearch, HalvesWhenTheStartFails) {
  const PeakSearch search = Search(100, [](double qps) { return qps < 30; });
  EXPECT_EQ(Rates(search), (std::vector<double>{100, 50, 25, 37.5, 31.25, 28.125, 29.6875,
                                                30.46875, 30.078125}));
  EXPECT_EQ(search.Peak(), 29.6875);
  // A coarser precision stops two steps earlier.
  const PeakSearch coarse = Search(100, [](double qps) { return qps < 30; }, 0.10);
  EXPECT_EQ(Rates(coarse), (std::vector<double>{100, 50, 25, 37.5, 31.25, 28.125, 29.6875}));
  EXPECT_EQ(coarse.Peak(), 29.6875);
}

TEST(PeakSearch, GivesUpWhenNothingPasses) {
  const PeakSearch search = Search(100, [](double) { return false; });
  EXPECT_EQ(search.steps().size(), 1u + PeakSearch::kMaxHalvings);
  EXPECT_EQ(search.steps().back().qps, 100.0 / (1 << 20));
  EXPECT_EQ(search.Peak(), std::nullopt);
  EXPECT_EQ(search.Explain(),
            "no rate passed: 100 QPS failed and so did 20 halvings down to 9.536743164e-05 QPS; "
            "look for what fails even at a low rate");
}

TEST(PeakSearch, GivesUpWhenEverythingPasses) {
  const PeakSearch search = Search(100, [](double) { return true; });
  EXPECT_EQ(search.steps().size(), 1u + PeakSearch::kMaxDoublings);
  EXPECT_EQ(search.Peak(), 104857600.0);
  EXPECT_EQ(search.Explain(),
            "every rate passed, up to 104857600 QPS (20 doublings): the peak is at least that; "
            "start higher");
}

TEST(PeakSearch, PrecisionRespectedAndStepsBounded) {
  std::mt19937_64 engine(3);
  std::uniform_real_distribution<double> log_threshold(std::log(1.0), std::log(1e6));
  for (int i = 0; i < 500; ++i) {
    const double threshold = std::exp(log_threshold(engine));
    for (double precision : {0.02, 0.1}) {
      const PeakSearch search = Search(100, [&](double qps) { return qps < threshold; }, precision);
      ASSERT_TRUE(search.Peak()) << threshold;
      const double peak = *search.Peak();
      EXPECT_LT(peak, threshold);
      EXPECT_GE(peak, threshold / (1 + precision)) << threshold;
      // Up to 20 doublings or halvings, then about log2(1 / precision) + 1 bisections.
      const auto bound = static_cast<size_t>(1 + 20 + std::ceil(std::log2(1 / precision)) + 1);
      EXPECT_LE(search.steps().size(), bound) << threshold;
    }
  }
}

TEST(PeakSearch, InvalidSettingsStopAtOnce) {
  PeakSearch zero_start(0);
  EXPECT_EQ(zero_start.NextRate(), std::nullopt);
  EXPECT_TRUE(zero_start.done());
  EXPECT_EQ(zero_start.Explain(),
            "the peak search needs a positive start rate and precision; got 0 QPS and 0.02");
  EXPECT_EQ(PeakSearch(100, 0).NextRate(), std::nullopt);
  EXPECT_EQ(PeakSearch(100, -1).NextRate(), std::nullopt);
}

TEST(PeakSearch, ExplainsWhileRunningAndIgnoresReportsAfterDone) {
  PeakSearch search(100);
  EXPECT_EQ(search.Explain(), "searching: next 100 QPS");
  search.Report(100, true);
  search.Report(200, false);
  EXPECT_EQ(search.Explain(),
            "searching: next 150 QPS, highest pass 100 QPS, lowest failure 200 QPS");
  search.Report(150, true);
  search.Report(175, true);
  search.Report(187.5, true);
  search.Report(193.75, true);
  search.Report(196.875, true);  // 3.125 apart: within 2% of 196.875
  EXPECT_TRUE(search.done());
  const size_t steps = search.steps().size();
  search.Report(500, true);
  EXPECT_EQ(search.steps().size(), steps);
  EXPECT_EQ(search.Peak(), 196.875);
}

}  // namespace
}  // namespace edgebench
