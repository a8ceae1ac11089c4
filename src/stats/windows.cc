#include "stats/windows.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "stats/summary.h"
#include "core/strings.h"

namespace edgebench {

std::vector<LatencyWindow> SplitIntoWindows(const std::vector<int64_t>& issue_ns,
                                            const std::vector<int64_t>& latency_ns,
                                            int64_t window_ns, int64_t wall_ns) {
  std::vector<LatencyWindow> windows;
  if (window_ns <= 0 || wall_ns <= 0) return windows;
  const int64_t window_count = (wall_ns - 1) / window_ns + 1;  // ceil without overflow
  windows.resize(static_cast<size_t>(window_count));
  std::vector<std::vector<int64_t>> latencies(static_cast<size_t>(window_count));
  const size_t n = std::min(issue_ns.size(), latency_ns.size());
  for (size_t i = 0; i < n; ++i) {
    const int64_t completed = issue_ns[i] + latency_ns[i];
    if (completed < 0 || completed > wall_ns) continue;
    const int64_t index = std::min(completed / window_ns, window_count - 1);
    latencies[static_cast<size_t>(index)].push_back(latency_ns[i]);
  }
  for (int64_t w = 0; w < window_count; ++w) {
    LatencyWindow& window = windows[static_cast<size_t>(w)];
    std::vector<int64_t>& sorted = latencies[static_cast<size_t>(w)];
    std::sort(sorted.begin(), sorted.end());
    window.start_ns = w * window_ns;
    window.end_ns = std::min(wall_ns, window.start_ns + window_ns);
    window.partial = window.end_ns - window.start_ns < window_ns;
    window.count = static_cast<int64_t>(sorted.size());
    window.p50_ns = NearestRankPercentile(sorted, 0.50);
    window.p99_ns = NearestRankPercentile(sorted, 0.99);
    const auto duration_ns = static_cast<double>(window.end_ns - window.start_ns);
    window.throughput_qps = static_cast<double>(window.count) * 1e9 / duration_ns;
  }
  return windows;
}

namespace {

// max/min - 1, with 0/0 = 0 and x/0 = infinity.
double Spread(const std::vector<double>& values) {
  const auto [min, max] = std::minmax_element(values.begin(), values.end());
  if (*max == *min) return 0;
  if (*min <= 0) return std::numeric_limits<double>::infinity();
  return *max / *min - 1.0;
}

}  // namespace

StabilityCheck CheckStability(const std::vector<LatencyWindow>& windows, int last_n,
                              double tolerance) {
  StabilityCheck check;
  const int wanted = std::max(1, last_n);
  std::vector<int> last;  // indices of the last `wanted` full windows, oldest first
  for (int i = static_cast<int>(windows.size()) - 1;
       i >= 0 && static_cast<int>(last.size()) < wanted; --i) {
    if (!windows[static_cast<size_t>(i)].partial) last.insert(last.begin(), i);
  }
  if (static_cast<int>(last.size()) < wanted) {
    check.failed_rule = "fewer than " + std::to_string(wanted) + " full windows (" +
                        std::to_string(last.size()) + ")";
    return check;
  }
  check.enough_windows = true;
  std::vector<std::string> failed;
  std::vector<double> p50s;
  std::vector<double> throughputs;
  for (int i : last) {
    const LatencyWindow& window = windows[static_cast<size_t>(i)];
    if (!window.p50_ns) {
      failed.push_back("window " + std::to_string(i) + " has too few queries for a p50 (" +
                       std::to_string(window.count) + ")");
    } else {
      p50s.push_back(static_cast<double>(*window.p50_ns));
    }
    throughputs.push_back(window.throughput_qps);
  }
  // A hair of slack so that spreads exactly at the tolerance (110 vs 100 at 10%) pass despite
  // binary fractions.
  constexpr double kSlack = 1e-12;
  const std::string last_windows = " of the last " + std::to_string(wanted) + " windows spread ";
  if (failed.empty()) {
    check.latency_spread = Spread(p50s);
    if (check.latency_spread > tolerance + kSlack) {
      failed.push_back("p50" + last_windows + FormatPercent(check.latency_spread, "%.3g") + " > " +
                       FormatPercent(tolerance, "%.3g"));
    }
  }
  check.throughput_spread = Spread(throughputs);
  if (check.throughput_spread > tolerance + kSlack) {
    failed.push_back("throughput" + last_windows + FormatPercent(check.throughput_spread, "%.3g") + " > " +
                     FormatPercent(tolerance, "%.3g"));
  }
  for (const std::string& rule : failed) {
    check.failed_rule += (check.failed_rule.empty() ? "" : "; ") + rule;
  }
  check.stable = failed.empty();
  return check;
}

Drift ComputeDrift(const std::vector<LatencyWindow>& windows, int first_steady, double threshold) {
  Drift drift;
  const int n = static_cast<int>(windows.size());
  for (int i = std::max(0, first_steady); i < n; ++i) {
    if (!windows[static_cast<size_t>(i)].partial && windows[static_cast<size_t>(i)].p99_ns) {
      drift.first_steady_window = i;
      break;
    }
  }
  if (drift.first_steady_window < 0) return drift;
  const int64_t base = *windows[static_cast<size_t>(drift.first_steady_window)].p99_ns;
  for (int i = n - 1; i > drift.first_steady_window; --i) {
    const LatencyWindow& window = windows[static_cast<size_t>(i)];
    if (!window.partial && window.p99_ns) {
      if (base > 0) {
        drift.p99_ratio = static_cast<double>(*window.p99_ns) / static_cast<double>(base);
      }
      break;
    }
  }
  for (int i = drift.first_steady_window + 1; i < n; ++i) {
    const auto& p99 = windows[static_cast<size_t>(i)].p99_ns;
    if (p99 && static_cast<double>(*p99) > threshold * static_cast<double>(base)) {
      drift.first_window_over = i;
      break;
    }
  }
  return drift;
}

}  // namespace edgebench
