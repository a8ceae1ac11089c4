#include "stats/load_summary.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

// Four queries on one session, hand-computed. Arrivals at 0, 1, 2 and 10 ms; each takes 1.5 ms
// of service, so the second waits 0.5 ms and the third 1 ms for the session.
//   query  arrival  start  end   latency  service  start delay
//   0      0        0      1.5   1.5      1.5      0
//   1      1        1.5    3.0   2.0      1.5      0.5
//   2      2        3.0    4.5   2.5      1.5      1.0
//   3      10       10     11.5  1.5      1.5      0
TEST(SummarizeServer, HandComputedQueue) {
  const int64_t ms = 1'000'000;
  const std::vector<int64_t> issue = {0, 1 * ms, 2 * ms, 10 * ms};
  const std::vector<int64_t> latency = {1500'000, 2 * ms, 2500'000, 1500'000};
  const std::vector<int64_t> service = {1500'000, 1500'000, 1500'000, 1500'000};
  const ServerSummary s = SummarizeServer(issue, latency, service, 11500'000, 2);
  EXPECT_DOUBLE_EQ(s.offered_qps, 4 / 0.010);    // 4 queries over the last arrival, 10 ms
  EXPECT_DOUBLE_EQ(s.achieved_qps, 4 / 0.010);   // the last start is at 10 ms too
  EXPECT_EQ(s.late_queries, 2);                  // 0.5 and 1 ms delays are over 100 us
  EXPECT_EQ(s.backlog_at_end, 0);                // all done by 10 ms
  EXPECT_EQ(s.not_issued, 2);
  EXPECT_EQ(s.service.count, 4);
  EXPECT_EQ(s.start_delay.max_ns, 1 * ms);
  EXPECT_EQ(s.start_delay.min_ns, 0);
  EXPECT_DOUBLE_EQ(s.start_delay.mean_ns, 1.5 * ms / 4);
}

// A server falling behind: arrivals every ms, service 3 ms, one session.
TEST(SummarizeServer, FallingBehindShowsInAchievedRateAndBacklog) {
  const int64_t ms = 1'000'000;
  std::vector<int64_t> issue, latency, service;
  for (int64_t i = 0; i < 5; ++i) {
    const int64_t start = 3 * ms * i;  // each starts when the last ends
    issue.push_back(i * ms);
    service.push_back(3 * ms);
    latency.push_back(start + 3 * ms - i * ms);
  }
  const ServerSummary s = SummarizeServer(issue, latency, service, 15 * ms, 0);
  EXPECT_DOUBLE_EQ(s.offered_qps, 5 / 0.004);   // last arrival at 4 ms
  EXPECT_DOUBLE_EQ(s.achieved_qps, 5 / 0.012);  // last start at 12 ms
  // At the last arrival (4 ms) queries 1, 2 and 3 were not complete (0 ended at 3 ms).
  EXPECT_EQ(s.backlog_at_end, 3);
  EXPECT_EQ(s.late_queries, 4);
}

TEST(SummarizeServer, EmptyIsZeros) {
  const ServerSummary s = SummarizeServer({}, {}, {}, 0, 7);
  EXPECT_EQ(s.not_issued, 7);
  EXPECT_EQ(s.offered_qps, 0);
  EXPECT_EQ(s.service.count, 0);
}

TEST(SummarizeStreams, SplitsByStreamWithTheWholeWallTime) {
  const std::vector<int64_t> latency = {10, 20, 30, 40, 50};
  const std::vector<int32_t> stream = {0, 1, 0, 1, 1};
  const auto per = SummarizeStreams(latency, stream, 3, 1'000'000'000);
  ASSERT_EQ(per.size(), 3u);
  EXPECT_EQ(per[0].count, 2);
  EXPECT_EQ(per[0].max_ns, 30);
  EXPECT_EQ(per[1].count, 3);
  EXPECT_DOUBLE_EQ(per[1].mean_ns, 110.0 / 3);
  EXPECT_DOUBLE_EQ(per[1].throughput_qps, 3);
  EXPECT_EQ(per[2].count, 0);  // a stream that completed nothing is visible as such
}

}  // namespace
}  // namespace edgebench
