// Closed-loop load on N streams: each stream issues its next query when its last completes
// (multi-stream, offline and soak are this loop with different stop rules and metrics). Each
// stream runs on its own thread with its own buffers; nothing on the per-query path takes a
// lock. Stream s uses sessions[s] when there are as many sessions as streams (per-stream), or
// sessions[0] for all (shared: only for backends whose Run is thread-safe).
//
// Phases: every stream runs its warmup queries, then all start the measured phase together.
// The measured phase stops when the queries of all streams together reach min_queries and
// min_duration has passed, at max_duration, or at max_queries (checked by each stream at most
// once a millisecond, so the counts may overshoot by a millisecond's queries); the queries in
// flight then complete and count. Query q of stream s uses input sample (q * N + s) % pool.
//
// Long runs (soak): with histograms_beyond_cap, max_queries is not a stop rule but the cap on
// raw samples. Each stream then also counts every measured latency in a histogram of its own
// for the window its completion falls in ((end - phase start) / window_ns), and keeps exact
// moments; no lock, a few integer operations a query. While the streams' raw samples together
// stay under the cap (checked as the stop rule is), they are kept as without histograms and the
// result has no histograms. Once they reach it, every raw measured sample is dropped (the
// record keeps none rather than a biased prefix), the run continues to its duration on the
// histograms alone, and the result carries them merged across streams per window
// (ScenarioResult::measured_histograms). Memory: the raw samples up to the cap (16 bytes a
// query) plus about 10 KiB per window per stream.
#pragma once

#include "load/system_under_test.h"

#include <functional>
#include <vector>

#include "backends/backend.h"
#include "load/scenario.h"
#include "load/settings.h"

namespace edgebench {

struct ClosedLoopPlan {
  int streams = 1;
  int64_t warmup_queries = 0;  // per stream
  int64_t min_queries = 1;     // all streams together
  int64_t min_duration_ns = 0;
  int64_t max_duration_ns = 0;
  int64_t max_queries = 0;     // all streams together: a stop rule, or the raw-sample cap
  // Soak: reaching max_queries drops the raw samples and the run goes on with histograms of
  // window_ns windows (see above). Requires window_ns > 0.
  bool histograms_beyond_cap = false;
  int64_t window_ns = 0;
};

// The measured series is ordered by issue time, with each query's stream.
// Stream s issues to lane s of `system`, or to lane 0 when it has one.
ScenarioResult RunClosedLoop(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                             const ClosedLoopPlan& plan, RunObserver* observer = nullptr,
                             const std::function<int64_t()>& now = {});
// The same on one model's sessions (one shared, or one per stream).
inline ScenarioResult RunClosedLoop(const std::vector<Session*>& sessions,
                                    const std::vector<std::vector<Tensor>>& input_pool, const ClosedLoopPlan& plan,
                                    RunObserver* observer = nullptr, const std::function<int64_t()>& now = {}) {
  SessionSystem system(sessions);
  return RunClosedLoop(system, input_pool, plan, observer, now);
}

}  // namespace edgebench
