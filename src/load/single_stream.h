// Single-stream load: one query at a time, the next issued when the last completes. Warmup
// queries are kept as their own series; the measured phase stops when both min_queries and
// min_duration are met, at max_duration, or at max_queries. Query i uses sample i % pool size.
#pragma once

#include <functional>
#include <vector>

#include "backends/backend.h"
#include "load/scenario.h"
#include "load/system_under_test.h"
#include "load/settings.h"

namespace edgebench {

// One query at a time on lane 0 of `system`.
ScenarioResult RunSingleStream(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                               const EffectiveRunSettings& settings, RunObserver* observer = nullptr,
                               const std::function<int64_t()>& now = {});
// The same on one model's session.
inline ScenarioResult RunSingleStream(Session& session, const std::vector<std::vector<Tensor>>& input_pool,
                                      const EffectiveRunSettings& settings, RunObserver* observer = nullptr,
                                      const std::function<int64_t()>& now = {}) {
  SessionSystem system({&session});
  return RunSingleStream(system, input_pool, settings, observer, now);
}

}  // namespace edgebench
