#include "load/stream_merge.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace edgebench {

QuerySeries MergeStreamsByIssue(const std::vector<const QuerySeries*>& streams) {
  std::vector<std::pair<int32_t, uint32_t>> order;  // (stream, index in stream)
  for (size_t s = 0; s < streams.size(); ++s) {
    for (size_t i = 0; i < streams[s]->latency_ns.size(); ++i) {
      order.emplace_back(static_cast<int32_t>(s), static_cast<uint32_t>(i));
    }
  }
  auto issue_of = [&](const std::pair<int32_t, uint32_t>& q) {
    return streams[static_cast<size_t>(q.first)]->issue_ns[q.second];
  };
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) { return issue_of(a) < issue_of(b); });
  QuerySeries merged;
  merged.latency_ns.reserve(order.size());
  merged.issue_ns.reserve(order.size());
  merged.stream.reserve(order.size());
  for (const auto& q : order) {
    const QuerySeries& series = *streams[static_cast<size_t>(q.first)];
    merged.latency_ns.push_back(series.latency_ns[q.second]);
    merged.issue_ns.push_back(series.issue_ns[q.second]);
    merged.stream.push_back(q.first);
  }
  return merged;
}

}  // namespace edgebench
