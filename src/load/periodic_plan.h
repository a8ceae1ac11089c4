// The scenarios that issue on a fixed period per stream (burst, camera): how many periods a run
// holds, and each stream's warmup.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/run_settings.h"

namespace edgebench {

// The periods of `period_ns` each of `streams` streams runs: enough for min_queries (all streams
// together) and min_duration, within max_duration and max_queries, at least one.
inline int64_t PeriodsPerStream(int streams, int64_t period_ns, const RunSettings& s) {
  auto ceil_div = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  const int64_t max_duration_ns = s.max_duration_ms * 1'000'000;
  int64_t periods = std::max(ceil_div(s.min_queries, streams), ceil_div(s.min_duration_ms * 1'000'000, period_ns));
  periods = std::min(periods, std::max<int64_t>(ceil_div(max_duration_ns, period_ns), 1));
  periods = std::min(periods, std::max<int64_t>(s.max_queries / streams, 1));
  return std::max<int64_t>(periods, 1);
}

// ceil(--warmup / streams) queries per stream.
inline int64_t WarmupPerStream(int streams, const RunSettings& s) {
  return (std::max<int64_t>(s.warmup_queries, 0) + streams - 1) / streams;
}

}  // namespace edgebench
