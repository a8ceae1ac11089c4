// Open-loop (server) load: queries arrive at Poisson-distributed times from a seeded generator
// and are served by a pool of sessions, whether or not earlier ones have finished (MLPerf
// LoadGen's Server scenario). A query waits for a free session when all are busy, in arrival
// order; its latency counts from its scheduled arrival, so the wait is part of it, and its
// service time (actual start to completion) is kept apart.
//
// The schedule has arrivals until both min_queries and min_duration are covered (at most
// max_queries); each worker takes the next arrival in order, sleeps until shortly before it
// and spins the rest, so the harness's own lateness stays in microseconds. Arrivals still
// unstarted at max_duration are not issued (counted in `not_issued`).
//
// Past raw_sample_cap measured queries, the result keeps no raw measured sample: at the end of
// the run (never per query) they are reduced to latency histograms by completion window and
// the server's totals (stats/server_histograms.h), so that the record stays small.
#pragma once

#include "load/system_under_test.h"

#include <functional>
#include <vector>

#include "backends/backend.h"
#include "load/scenario.h"

namespace edgebench {

struct ServerPlan {
  int workers = 1;              // sessions serving queries (--concurrency)
  double target_qps = 0;
  uint64_t seed = 0;
  int64_t warmup_queries = 0;   // per worker, closed loop, before the schedule starts
  int64_t min_queries = 1;
  int64_t min_duration_ns = 0;
  int64_t max_duration_ns = 0;
  int64_t max_queries = 0;
  int64_t raw_sample_cap = kServerRawSampleCap;  // 0: keep every raw sample
  int64_t window_ns = 5'000'000'000;  // the histograms' window past the cap (--window)
};

// The schedule: arrival times (ns after the phase start) of a seeded Poisson process at
// target_qps, until both min_queries and min_duration are covered or max_queries is reached.
std::vector<int64_t> ServerSchedule(const ServerPlan& plan);

// Worker w issues to lane w of `system`, or to lane 0 when it has one (shared).
// The measured series (below the raw-sample cap) is in arrival order: issue_ns the scheduled arrival, latency_ns from it,
// service_ns from the actual start, stream the worker.
ScenarioResult RunServer(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                         const ServerPlan& plan, RunObserver* observer = nullptr);
// The same on one model's sessions (one shared, or one per worker).
inline ScenarioResult RunServer(const std::vector<Session*>& sessions, const std::vector<std::vector<Tensor>>& input_pool,
                                const ServerPlan& plan, RunObserver* observer = nullptr) {
  SessionSystem system(sessions);
  return RunServer(system, input_pool, plan, observer);
}

}  // namespace edgebench
