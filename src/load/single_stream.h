// Single-stream load: one query at a time, the next issued when the last completes. Warmup
// queries are kept as their own series; the measured phase stops when both min_queries and
// min_duration are met, at max_duration, or at max_queries. Query i uses sample i % pool size.
#pragma once

#include <functional>
#include <vector>

#include "backends/backend.h"
#include "load/scenario.h"
#include "load/settings.h"

namespace edgebench {

ScenarioResult RunSingleStream(Session& session, const std::vector<std::vector<Tensor>>& input_pool,
                               const EffectiveRunSettings& settings, RunObserver* observer = nullptr,
                               const std::function<int64_t()>& now = {});

}  // namespace edgebench
