// Single-stream load: one query at a time, the next issued when the last completes.
// Warmup queries are kept as their own series; the measured phase stops when both
// min_queries and min_duration are met, or at max_duration.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "load/settings.h"

namespace edgebench {

struct SingleStreamSamples {
  std::vector<int64_t> warmup_ns;
  std::vector<int64_t> measured_ns;
  int64_t measured_wall_ns = 0;
  std::string stop_reason;  // "min_queries_and_duration", "max_duration", "error"
  Status error;             // the first failed query, if any
  int64_t failed_query = -1;  // 0-based index over warmup + measured
};

SingleStreamSamples RunSingleStream(Session& session, const std::vector<Tensor>& inputs,
                                    const EffectiveRunSettings& settings);

}  // namespace edgebench
