// Statistics over latency samples, exactly as defined in docs/metrics.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// The percentiles edgebench reports, as fractions.
inline const std::vector<double> kReportedPercentiles = {0.50, 0.90, 0.95, 0.99, 0.999};

// "p50", "p99", "p99.9".
std::string PercentileName(double p);

// Nearest rank over sorted samples: x[ceil(p*n) - 1]. Absent unless n >= 1 / (1 - p)
// (p99 needs 100 samples); never guessed. p must lie in (0, 1).
std::optional<int64_t> NearestRankPercentile(const std::vector<int64_t>& sorted, double p);

// Samples needed before percentile p is reported.
int64_t SamplesNeededFor(double p);

struct LatencySummary {
  int64_t count = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  double mean_ns = 0;
  double stddev_ns = 0;  // sample standard deviation (n - 1); 0 when n < 2
  double cv = 0;         // stddev / mean
  std::vector<std::pair<double, std::optional<int64_t>>> percentiles;  // kReportedPercentiles
  double throughput_qps = 0;  // count / wall time of the measured phase
  int64_t wall_ns = 0;

  std::optional<int64_t> Percentile(double p) const;
};

// Summarises samples measured over `wall_ns` of wall time.
LatencySummary Summarize(const std::vector<int64_t>& samples_ns, int64_t wall_ns);

// Settling: over the warmup series followed by the measured series, the first query index
// (0-based) from which the rolling median (of the last `window` queries, fewer at the start)
// stays within `tolerance` of the steady-state median (the measured series' median) until the
// end. Absent when even the last query's rolling median is outside the band.
struct Settling {
  int64_t query_index = 0;  // 0 when latency was settled from the first query
  int64_t time_ns = 0;      // sum of the latencies of the queries before query_index
};
std::optional<Settling> ComputeSettling(const std::vector<int64_t>& warmup_ns,
                                        const std::vector<int64_t>& measured_ns,
                                        int window = 10, double tolerance = 0.05);

}  // namespace edgebench
