// Statistics of the load scenarios, from raw per-query samples (docs/metrics.md, "Load").
#pragma once

#include <cstdint>
#include <vector>

#include "stats/summary.h"

namespace edgebench {

// A server query that started more than this after its scheduled arrival waited for a busy
// session: well above the harness's own lateness (microseconds), so "late" means queueing.
inline constexpr int64_t kLateStartNs = 100'000;

struct ServerSummary {
  double offered_qps = 0;   // issued queries / last scheduled arrival (the seeded schedule's rate)
  double achieved_qps = 0;  // issued queries / last actual start
  LatencySummary service;   // actual start to completion
  LatencySummary start_delay;  // scheduled arrival to actual start: queueing plus harness lateness
  int64_t late_queries = 0;    // start delay above kLateStartNs
  // Queries scheduled before the last arrival and not yet complete at it: a server keeping up
  // holds about its concurrency; one falling behind holds a growing queue.
  int64_t backlog_at_end = 0;
  int64_t not_issued = 0;  // scheduled but never issued (the run hit max_duration)
};

// `issue_ns`: scheduled arrivals (ascending), `latency_ns` from them, `service_ns` from the actual
// starts; all of one length.
ServerSummary SummarizeServer(const std::vector<int64_t>& issue_ns, const std::vector<int64_t>& latency_ns,
                              const std::vector<int64_t>& service_ns, int64_t wall_ns, int64_t not_issued);

// One summary per stream 0..streams-1 over the queries `stream` assigns to it, each with the
// whole phase's wall time (so the throughputs add up to the aggregate).
std::vector<LatencySummary> SummarizeStreams(const std::vector<int64_t>& latency_ns,
                                             const std::vector<int32_t>& stream, int streams, int64_t wall_ns);

}  // namespace edgebench
