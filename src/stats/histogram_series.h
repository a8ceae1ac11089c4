// The measured phase of a run too long to keep every sample (a soak past the raw-sample cap,
// --max-queries): latency histograms by completion window, per stream, and exact moments, in
// place of the raw per-query series. Percentiles come from the histograms (within their
// relative error, stats/latency_histogram.h); count, min, max, mean and the standard deviation
// stay exact.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "stats/latency_histogram.h"
#include "stats/summary.h"
#include "stats/windows.h"

namespace edgebench {

// Count, sum and sum of squares of latencies in 128-bit integers, so that the mean and the
// standard deviation of billions of queries are exact (the sum of squares holds 10^9 queries of
// 10 s each, 10^29 ns^2, well under 2^127). Add is two additions and a multiplication.
struct LatencyMoments {
  int64_t count = 0;
  __int128 sum = 0;
  __int128 sum_squares = 0;

  void Add(int64_t ns) {
    ++count;
    sum += ns;
    sum_squares += static_cast<__int128>(ns) * ns;
  }
  void Merge(const LatencyMoments& other);
  double mean() const;    // 0 when empty
  double stddev() const;  // sample standard deviation (n - 1), as Summarize; 0 when n < 2

  // {"count": n, "sum_ns": "decimal", "sum_squares_ns2": "decimal"}: decimal strings, since
  // the sums may exceed what a JSON number holds exactly.
  nlohmann::json ToJson() const;
  static Result<LatencyMoments> FromJson(const nlohmann::json& json);
};

struct HistogramSeries {
  // Window i holds the queries of every stream that completed in [i, i + 1) x window_ns after
  // the measured phase's start (the last window also those completing at its end).
  int64_t window_ns = 0;
  std::vector<LatencyHistogram> windows;
  std::vector<LatencyHistogram> streams;       // stream s: its queries of every window
  std::vector<LatencyMoments> stream_moments;  // stream s: exact moments of its queries

  int64_t count() const;
  LatencyHistogram Total() const;      // every window merged
  LatencyMoments TotalMoments() const;
  double relative_error() const;       // of the percentiles (the histograms' own)

  // {"window_ns": W, "histogram_windows": [histogram, ...], "streams": [{"count", "sum_ns",
  // "sum_squares_ns2", "histogram"}, ...]}: each stream's "histogram" only with more than one
  // stream (with one it is the windows merged, which the reader recomputes).
  nlohmann::json ToJson() const;
  // An error names the field that is wrong; the counts of windows, streams and moments must agree.
  static Result<HistogramSeries> FromJson(const nlohmann::json& json);
};

// A summary as Summarize gives from raw samples, from a histogram and exact moments:
// percentiles within the histogram's relative error, the rest exact.
LatencySummary SummarizeHistogram(const LatencyHistogram& histogram, const LatencyMoments& moments,
                                  int64_t wall_ns);

// Windows as SplitIntoWindows gives from raw samples, from the series' window histograms: the
// windows cover [0, wall_ns), ceil(wall_ns / window_ns) of them; a histogram past the last
// (queries completing exactly at wall_ns) counts in the last. Empty when window_ns or wall_ns
// is not positive.
std::vector<LatencyWindow> WindowsFromHistograms(const HistogramSeries& series, int64_t wall_ns);

}  // namespace edgebench
