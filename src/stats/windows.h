// Windowed statistics for soak and stability: per-window latency percentiles and throughput,
// Triton perf_analyzer's stability rule over the last windows, and latency drift.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

struct LatencyWindow {
  int64_t start_ns = 0;  // ns after the phase start
  int64_t end_ns = 0;    // exclusive, except for the last window (see SplitIntoWindows)
  int64_t count = 0;     // queries completed in the window
  std::optional<int64_t> p50_ns;  // NearestRankPercentile: absent below 2 queries
  std::optional<int64_t> p99_ns;  // absent below 100 queries
  double throughput_qps = 0;      // count / (end_ns - start_ns)
  bool partial = false;           // shorter than window_ns (the last window only)
};

// Queries assigned to windows of `window_ns` by completion time, issue_ns[i] + latency_ns[i]
// (ns after the phase start). The windows cover [0, wall_ns): ceil(wall_ns / window_ns) of
// them, the last `partial` when shorter than window_ns. A query completing exactly at wall_ns
// (the phase often ends with its last completion) counts in the last window; queries
// completing before 0 or after wall_ns are outside the phase and not counted. The percentiles
// are over latency_ns. Uses the first min(issue_ns.size(), latency_ns.size()) queries. Empty
// when window_ns or wall_ns is not positive.
std::vector<LatencyWindow> SplitIntoWindows(const std::vector<int64_t>& issue_ns,
                                            const std::vector<int64_t>& latency_ns,
                                            int64_t window_ns, int64_t wall_ns);

struct StabilityCheck {
  bool stable = false;
  bool enough_windows = false;
  // max/min - 1 over the last N full windows; 0 when not computed, +infinity when the minimum
  // is 0 and the maximum is not.
  double latency_spread = 0;
  double throughput_spread = 0;
  std::string failed_rule;  // empty when stable; else each failed rule, with its numbers
};

// perf_analyzer's rule: stable when the p50 latency and the throughput of the last `last_n`
// full (non-partial) windows each lie within `tolerance` (max/min <= 1 + tolerance). Failed
// rules read e.g. "p50 of the last 3 windows spread 14% > 10%", "fewer than 3 full windows
// (2)", "window 4 has too few queries for a p50 (1)"; several are joined with "; ".
StabilityCheck CheckStability(const std::vector<LatencyWindow>& windows, int last_n = 3,
                              double tolerance = 0.10);

struct Drift {
  int first_steady_window = -1;  // index into the windows; -1 when no full window has a p99
  // The last full window's p99 / the first steady window's p99 (the last full window with a
  // p99 after the first steady one). Absent with fewer than two such windows, or when the
  // first steady p99 is 0.
  std::optional<double> p99_ratio;
  // The first window after the first steady one (partial windows included: a spike at the end
  // is still a spike) whose p99 exceeds threshold x the first steady window's p99.
  std::optional<int> first_window_over;
};

// The first steady window is the first full window with a p99 at or after index `first_steady`
// (the caller's warm-up windows come before it).
Drift ComputeDrift(const std::vector<LatencyWindow>& windows, int first_steady = 0,
                   double threshold = 1.5);

}  // namespace edgebench
