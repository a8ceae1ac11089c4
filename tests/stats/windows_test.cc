#include "stats/windows.h"

#include <gtest/gtest.h>

#include <cmath>

namespace edgebench {
namespace {

TEST(Windows, AssignsQueriesByCompletionTime) {
  // Windows of 100 ns over 250 ns: [0,100), [100,200), [200,250] (partial).
  const std::vector<int64_t> issue = {0, 10, 90, 95, 150, 180, 240, 200, -20, 5};
  const std::vector<int64_t> latency = {5, 20, 10, 4, 30, 20, 10, 51, 10, 0};
  // completions:                       5, 30, 100, 99, 180, 200, 250, 251, -10, 5
  const auto windows = SplitIntoWindows(issue, latency, 100, 250);
  ASSERT_EQ(windows.size(), 3u);
  EXPECT_EQ(windows[0].start_ns, 0);
  EXPECT_EQ(windows[0].end_ns, 100);
  EXPECT_EQ(windows[0].count, 4);  // 5, 30, 99, 5 (the one at -10 is before the phase)
  EXPECT_EQ(windows[0].p50_ns, 4);  // latencies 0, 4, 5, 20: the 2nd
  EXPECT_EQ(windows[0].p99_ns, std::nullopt);  // needs 100 queries
  EXPECT_DOUBLE_EQ(windows[0].throughput_qps, 4 * 1e9 / 100);
  EXPECT_FALSE(windows[0].partial);

  EXPECT_EQ(windows[1].count, 2);  // 100 (the boundary starts window 1), 180
  EXPECT_EQ(windows[1].p50_ns, 10);
  EXPECT_FALSE(windows[1].partial);

  EXPECT_EQ(windows[2].start_ns, 200);
  EXPECT_EQ(windows[2].end_ns, 250);
  EXPECT_TRUE(windows[2].partial);
  EXPECT_EQ(windows[2].count, 2);  // 200 and 250 (at wall_ns: the last window); 251 is outside
  EXPECT_EQ(windows[2].p50_ns, 10);
  EXPECT_DOUBLE_EQ(windows[2].throughput_qps, 2 * 1e9 / 50);
}

TEST(Windows, ExactMultipleHasNoPartialWindow) {
  std::vector<int64_t> issue;
  std::vector<int64_t> latency;
  for (int64_t i = 0; i < 300; ++i) {
    latency.push_back(i % 100 + 1);  // each window of 1,000 ns holds 1..100 once
    issue.push_back(i * 10 + 5 - latency.back());  // completes at i * 10 + 5
  }
  const auto windows = SplitIntoWindows(issue, latency, 1000, 3000);
  ASSERT_EQ(windows.size(), 3u);
  for (const auto& window : windows) {
    EXPECT_FALSE(window.partial);
    EXPECT_EQ(window.count, 100);
    EXPECT_EQ(window.p50_ns, 50);
    EXPECT_EQ(window.p99_ns, 99);
    EXPECT_DOUBLE_EQ(window.throughput_qps, 1e8);
  }
  EXPECT_TRUE(SplitIntoWindows(issue, latency, 0, 3000).empty());
  EXPECT_TRUE(SplitIntoWindows(issue, latency, 1000, 0).empty());
}

LatencyWindow Window(std::optional<int64_t> p50, double qps, bool partial = false,
                     std::optional<int64_t> p99 = std::nullopt) {
  LatencyWindow window;
  window.p50_ns = p50;
  window.p99_ns = p99;
  window.count = p50 ? 100 : 1;
  window.throughput_qps = qps;
  window.partial = partial;
  return window;
}

TEST(Stability, WithinTenPercentIsStable) {
  // The first window is out of band but not among the last three; the partial one is ignored.
  const std::vector<LatencyWindow> windows = {Window(300, 50), Window(100, 1000), Window(110, 1100),
                                              Window(105, 1050), Window(900, 10, true)};
  const StabilityCheck check = CheckStability(windows);
  EXPECT_TRUE(check.stable);
  EXPECT_TRUE(check.enough_windows);
  EXPECT_NEAR(check.latency_spread, 0.10, 1e-12);
  EXPECT_NEAR(check.throughput_spread, 0.10, 1e-12);
  EXPECT_EQ(check.failed_rule, "");
}

TEST(Stability, NamesTheFailedRule) {
  StabilityCheck check = CheckStability({Window(100, 1000), Window(114, 1000), Window(110, 1000)});
  EXPECT_FALSE(check.stable);
  EXPECT_NEAR(check.latency_spread, 0.14, 1e-12);
  EXPECT_EQ(check.throughput_spread, 0.0);
  EXPECT_EQ(check.failed_rule, "p50 of the last 3 windows spread 14% > 10%");

  check = CheckStability({Window(100, 1000), Window(100, 1200), Window(100, 1000)});
  EXPECT_EQ(check.failed_rule, "throughput of the last 3 windows spread 20% > 10%");

  check = CheckStability({Window(100, 1000), Window(150, 1200), Window(100, 1000)});
  EXPECT_EQ(check.failed_rule,
            "p50 of the last 3 windows spread 50% > 10%; throughput of the last 3 windows spread "
            "20% > 10%");

  check = CheckStability({Window(100, 1000), Window(100, 1000), Window(100, 1000, true)});
  EXPECT_FALSE(check.stable);
  EXPECT_FALSE(check.enough_windows);
  EXPECT_EQ(check.failed_rule, "fewer than 3 full windows (2)");

  check = CheckStability({Window(100, 1000), Window(std::nullopt, 1000), Window(100, 1000)});
  EXPECT_FALSE(check.stable);
  EXPECT_EQ(check.failed_rule, "window 1 has too few queries for a p50 (1)");

  check = CheckStability({Window(100, 1000), Window(104, 1000)}, 2, 0.05);
  EXPECT_TRUE(check.stable);
  check = CheckStability({Window(0, 1000), Window(1, 1000)}, 2, 0.05);
  EXPECT_TRUE(std::isinf(check.latency_spread));
  EXPECT_FALSE(check.stable);
}

TEST(Drift, RatioAndFirstWindowOver) {
  const std::vector<LatencyWindow> windows = {
      Window(10, 1000, false, 500),   // warm-up, skipped by first_steady = 1
      Window(10, 1000, false, std::nullopt),
      Window(10, 1000, false, 100),   // first steady
      Window(10, 1000, false, 140),
      Window(10, 1000, false, 160),   // first over 1.5 x 100
      Window(10, 1000, false, 130),   // last full window
      Window(10, 1000, true, 400)};   // partial
  const Drift drift = ComputeDrift(windows, 1);
  EXPECT_EQ(drift.first_steady_window, 2);
  ASSERT_TRUE(drift.p99_ratio);
  EXPECT_DOUBLE_EQ(*drift.p99_ratio, 1.3);
  EXPECT_EQ(drift.first_window_over, 4);

  const Drift strict = ComputeDrift(windows, 1, 3.0);
  EXPECT_EQ(strict.first_window_over, 6);  // only the partial window's 400 is over 300

  const Drift from_start = ComputeDrift(windows);
  EXPECT_EQ(from_start.first_steady_window, 0);
  EXPECT_DOUBLE_EQ(*from_start.p99_ratio, 130.0 / 500.0);
  EXPECT_EQ(from_start.first_window_over, std::nullopt);

  const Drift single = ComputeDrift({Window(10, 1000, false, 100), Window(10, 1000, true, 100)});
  EXPECT_EQ(single.first_steady_window, 0);
  EXPECT_EQ(single.p99_ratio, std::nullopt);
  EXPECT_EQ(ComputeDrift({}).first_steady_window, -1);
}

}  // namespace
}  // namespace edgebench
