#include "stats/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace edgebench {

std::string PercentileName(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "p%g", p * 100.0);
  return buffer;
}

int64_t SamplesNeededFor(double p) {
  // 1 / (1 - p), rounded to absorb binary fractions (1 / (1 - 0.99) is 100.000000000001).
  return static_cast<int64_t>(std::ceil(1.0 / (1.0 - p) - 1e-9));
}

std::optional<int64_t> NearestRankPercentile(const std::vector<int64_t>& sorted, double p) {
  const auto n = static_cast<int64_t>(sorted.size());
  if (n == 0 || p <= 0.0 || p >= 1.0 || n < SamplesNeededFor(p)) return std::nullopt;
  auto rank = static_cast<int64_t>(std::ceil(p * static_cast<double>(n) - 1e-9));
  rank = std::clamp<int64_t>(rank, 1, n);
  return sorted[static_cast<size_t>(rank - 1)];
}

std::optional<int64_t> LatencySummary::Percentile(double p) const {
  for (const auto& [q, value] : percentiles) {
    if (std::abs(q - p) < 1e-12) return value;
  }
  return std::nullopt;
}

LatencySummary Summarize(const std::vector<int64_t>& samples_ns, int64_t wall_ns) {
  LatencySummary s;
  s.count = static_cast<int64_t>(samples_ns.size());
  s.wall_ns = wall_ns;
  std::vector<int64_t> sorted = samples_ns;
  std::sort(sorted.begin(), sorted.end());
  for (double p : kReportedPercentiles) s.percentiles.emplace_back(p, NearestRankPercentile(sorted, p));
  if (sorted.empty()) return s;
  s.min_ns = sorted.front();
  s.max_ns = sorted.back();
  double sum = 0;
  for (int64_t x : sorted) sum += static_cast<double>(x);
  s.mean_ns = sum / static_cast<double>(s.count);
  if (s.count >= 2) {
    double squares = 0;
    for (int64_t x : sorted) squares += (static_cast<double>(x) - s.mean_ns) * (static_cast<double>(x) - s.mean_ns);
    s.stddev_ns = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  s.cv = s.mean_ns > 0 ? s.stddev_ns / s.mean_ns : 0;
  s.throughput_qps = wall_ns > 0 ? static_cast<double>(s.count) * 1e9 / static_cast<double>(wall_ns) : 0;
  return s;
}

namespace {

double Median(std::vector<int64_t> window) {
  std::sort(window.begin(), window.end());
  const size_t n = window.size();
  return n % 2 ? static_cast<double>(window[n / 2])
               : (static_cast<double>(window[n / 2 - 1]) + static_cast<double>(window[n / 2])) / 2.0;
}

}  // namespace

std::optional<Settling> ComputeSettling(const std::vector<int64_t>& warmup_ns,
                                        const std::vector<int64_t>& measured_ns, int window,
                                        double tolerance) {
  if (measured_ns.empty() || window < 1) return std::nullopt;
  std::vector<int64_t> all = warmup_ns;
  all.insert(all.end(), measured_ns.begin(), measured_ns.end());
  const double steady = Median(measured_ns);
  const auto n = static_cast<int64_t>(all.size());
  // Rolling median at query i: over queries max(0, i - window + 1) .. i. Walk back from the
  // last query; the settling index is the earliest i from which every later median is in band.
  int64_t settled_at = -1;
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t begin = std::max<int64_t>(0, i - window + 1);
    const std::vector<int64_t> w(all.begin() + begin, all.begin() + i + 1);
    if (std::abs(Median(w) - steady) > tolerance * steady) break;
    settled_at = i;
  }
  if (settled_at < 0) return std::nullopt;
  Settling settling;
  settling.query_index = settled_at;
  for (int64_t i = 0; i < settled_at; ++i) settling.time_ns += all[static_cast<size_t>(i)];
  return settling;
}

}  // namespace edgebench
