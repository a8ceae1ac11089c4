#include "load/single_stream.h"

#include <gtest/gtest.h>

#include "backends/null/null_backend.h"
#include "load/input_generator.h"

namespace edgebench {
namespace {

struct Harness {
  std::unique_ptr<Session> session;
  std::vector<Tensor> inputs;
};

Harness Make(const std::string& target) {
  NullBackend backend;
  Harness h;
  h.session = backend.Load({"unused"}, ParseTarget(target).take()).take();
  EXPECT_TRUE(h.session->Prepare({{1, 16}}).ok());
  h.inputs = GenerateInputs(h.session->signature(), {{1, 16}}, 0).take();
  return h;
}

EffectiveRunSettings Settings(int64_t warmup, int64_t min_queries, int64_t min_ms, int64_t max_ms) {
  RunSettings s;
  s.warmup_queries = warmup;
  s.min_queries = min_queries;
  s.min_duration_ms = min_ms;
  s.max_duration_ms = max_ms;
  return Validate(s).take();
}

TEST(SingleStream, StopsAtMinQueriesWhenDurationIsMet) {
  Harness h = Make("null:spin?us=50");
  auto r = RunSingleStream(*h.session, h.inputs, Settings(5, 40, 0, 60000));
  EXPECT_EQ(r.warmup_ns.size(), 5u);
  EXPECT_EQ(r.measured_ns.size(), 40u);
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
  for (int64_t ns : r.measured_ns) EXPECT_GE(ns, 50'000);
}

TEST(SingleStream, KeepsGoingUntilMinDuration) {
  Harness h = Make("null:spin?us=1000");
  auto r = RunSingleStream(*h.session, h.inputs, Settings(0, 5, 100, 60000));
  EXPECT_GE(r.measured_wall_ns, 100'000'000);
  // It went on past min_queries (5) until the duration was met: ~100 queries of ~1 ms on an
  // idle machine, fewer when the test shares the CPU, never just the 5.
  EXPECT_GT(r.measured_ns.size(), 5u);
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
}

TEST(SingleStream, MaxDurationCapsTheRun) {
  Harness h = Make("null:spin?us=1000");
  auto r = RunSingleStream(*h.session, h.inputs, Settings(0, 1'000'000, 0, 50));
  EXPECT_EQ(r.stop_reason, "max_duration");
  EXPECT_LT(r.measured_ns.size(), 60u);
  EXPECT_GE(r.measured_wall_ns, 50'000'000);
}

TEST(SingleStream, StopsAtTheFirstFailedQuery) {
  Harness h = Make("null:spin?us=10&fail_at=8");
  auto r = RunSingleStream(*h.session, h.inputs, Settings(5, 100, 0, 60000));
  EXPECT_EQ(r.stop_reason, "error");
  EXPECT_EQ(r.failed_query, 7);
  EXPECT_EQ(r.warmup_ns.size(), 5u);
  EXPECT_EQ(r.measured_ns.size(), 2u);
  EXPECT_NE(r.error.message().find("fail_at"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
