#include "stats/load_summary.h"

#include <algorithm>

namespace edgebench {

ServerSummary SummarizeServer(const std::vector<int64_t>& issue_ns, const std::vector<int64_t>& latency_ns,
                              const std::vector<int64_t>& service_ns, int64_t wall_ns, int64_t not_issued) {
  ServerSummary s;
  s.not_issued = not_issued;
  const size_t n = std::min({issue_ns.size(), latency_ns.size(), service_ns.size()});
  if (n == 0) return s;
  std::vector<int64_t> delay(n);
  int64_t last_start = 0;
  for (size_t i = 0; i < n; ++i) {
    delay[i] = latency_ns[i] - service_ns[i];
    last_start = std::max(last_start, issue_ns[i] + delay[i]);
    if (delay[i] > kLateStartNs) ++s.late_queries;
  }
  const int64_t last_arrival = issue_ns[n - 1];
  if (last_arrival > 0) s.offered_qps = static_cast<double>(n) * 1e9 / static_cast<double>(last_arrival);
  if (last_start > 0) s.achieved_qps = static_cast<double>(n) * 1e9 / static_cast<double>(last_start);
  for (size_t i = 0; i + 1 < n; ++i) {
    if (issue_ns[i] + latency_ns[i] > last_arrival) ++s.backlog_at_end;
  }
  s.service = Summarize(std::vector<int64_t>(service_ns.begin(), service_ns.begin() + static_cast<long>(n)), wall_ns);
  s.start_delay = Summarize(delay, wall_ns);
  return s;
}

std::vector<LatencySummary> SummarizeStreams(const std::vector<int64_t>& latency_ns,
                                             const std::vector<int32_t>& stream, int streams, int64_t wall_ns) {
  std::vector<std::vector<int64_t>> by_stream(static_cast<size_t>(std::max(streams, 0)));
  for (size_t i = 0; i < latency_ns.size() && i < stream.size(); ++i) {
    if (stream[i] >= 0 && stream[i] < streams) by_stream[static_cast<size_t>(stream[i])].push_back(latency_ns[i]);
  }
  std::vector<LatencySummary> summaries;
  for (const auto& samples : by_stream) summaries.push_back(Summarize(samples, wall_ns));
  return summaries;
}

}  // namespace edgebench
