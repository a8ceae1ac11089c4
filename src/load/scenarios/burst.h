// burst:N[/PERIOD]: N queries issued at once every PERIOD (default 100 ms), one from each of N
// streams, each on its own session: a camera rig whose N frames arrive together, or a batch of
// requests that lands at once. A query's latency runs from its burst's scheduled start to its
// completion, so a burst that overruns its period delays the next, and that wait is measured.
// The measured phase is the bursts that cover both --min-queries (all streams together) and
// --min-duration, at most --max-duration and --max-queries. Warmup: ceil(--warmup / N) queries
// per stream, back to back.
#pragma once

#include "load/system_under_test.h"

#include <vector>

#include "load/scenario_registry.h"

namespace edgebench {

extern const ScenarioEntry kBurstScenario;

struct BurstPlan {
  int streams = 1;           // N
  int64_t period_ns = 0;
  int64_t bursts = 0;        // measured bursts
  int64_t warmup_per_stream = 0;
  int64_t max_duration_ns = 0;
};

// The bursts a run holds: enough for min_queries and min_duration, within max_duration and
// max_queries (at least one).
BurstPlan PlanBursts(int streams, int64_t period_ms, const RunSettings& settings);

// Runs the plan on `system` (one lane shared, or one per stream). The measured series is in
// issue order, each query with its stream; issue times are the bursts' scheduled starts.
ScenarioResult RunBursts(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                         const BurstPlan& plan, RunObserver* observer = nullptr);
// The same on one model's sessions.
inline ScenarioResult RunBursts(const std::vector<Session*>& sessions, const std::vector<std::vector<Tensor>>& input_pool,
                                const BurstPlan& plan, RunObserver* observer = nullptr) {
  SessionSystem system(sessions);
  return RunBursts(system, input_pool, plan, observer);
}

}  // namespace edgebench
