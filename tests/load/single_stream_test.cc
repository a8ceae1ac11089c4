#include "load/single_stream.h"

#include <gtest/gtest.h>

#include "backends/null/null_backend.h"
#include "inputs/input_generator.h"

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
  auto r = RunSingleStream(*h.session, {h.inputs}, Settings(5, 40, 0, 60000));
  EXPECT_EQ(r.warmup.latency_ns.size(), 5u);
  EXPECT_EQ(r.measured.latency_ns.size(), 40u);
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
  for (int64_t ns : r.measured.latency_ns) EXPECT_GE(ns, 50'000);
}

TEST(SingleStream, KeepsGoingUntilMinDuration) {
  Harness h = Make("null:spin?us=1000");
  auto r = RunSingleStream(*h.session, {h.inputs}, Settings(0, 5, 100, 60000));
  EXPECT_GE(r.measured_wall_ns, 100'000'000);
  // It went on past min_queries (5) until the duration was met: ~100 queries of ~1 ms on an
  // idle machine, fewer when the test shares the CPU, never just the 5.
  EXPECT_GT(r.measured.latency_ns.size(), 5u);
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
}

TEST(SingleStream, MaxDurationCapsTheRun) {
  Harness h = Make("null:spin?us=1000");
  auto r = RunSingleStream(*h.session, {h.inputs}, Settings(0, 1'000'000, 0, 50));
  EXPECT_EQ(r.stop_reason, "max_duration");
  EXPECT_LT(r.measured.latency_ns.size(), 60u);
  EXPECT_GE(r.measured_wall_ns, 50'000'000);
}

TEST(SingleStream, StopsAtTheFirstFailedQuery) {
  Harness h = Make("null:spin?us=10&fail_at=8");
  auto r = RunSingleStream(*h.session, {h.inputs}, Settings(5, 100, 0, 60000));
  EXPECT_EQ(r.stop_reason, "error");
  EXPECT_EQ(r.failed_query, 7);
  EXPECT_EQ(r.warmup.latency_ns.size(), 5u);
  EXPECT_EQ(r.measured.latency_ns.size(), 2u);
  EXPECT_NE(r.error.message().find("run 8 failed as requested"), std::string::npos) << r.error.message();
}

TEST(SingleStream, IssueTimesRiseOnTheInjectedClockAndPhasesAreObserved) {
  Harness h = Make("null:spin?us=1");
  int64_t clock = 0;
  auto fake = [&] { return clock += 1000; };  // every reading 1 us after the last
  struct Phases : RunObserver {
    std::vector<std::string> seen;
    void OnPhaseStart(const std::string& p, int64_t) override { seen.push_back("start " + p); }
    void OnPhaseEnd(const std::string& p) override { seen.push_back("end " + p); }
  } phases;
  auto r = RunSingleStream(*h.session, {h.inputs}, Settings(2, 3, 0, 60000), &phases, fake);
  // Each query reads the clock twice (start, end) and the stop rule once more.
  EXPECT_EQ(r.warmup.latency_ns, (std::vector<int64_t>{1000, 1000}));
  EXPECT_EQ(r.warmup.issue_ns, (std::vector<int64_t>{1000, 3000}));
  EXPECT_EQ(r.measured.latency_ns, (std::vector<int64_t>{1000, 1000, 1000}));
  EXPECT_EQ(r.measured.issue_ns, (std::vector<int64_t>{1000, 4000, 7000}));
  // The measured phase starts at reading 6 (6000) and ends at reading 16: warmup not included.
  EXPECT_EQ(r.measured_start_ns, 6000);
  EXPECT_EQ(r.measured_wall_ns, 10000);
  EXPECT_EQ(phases.seen, (std::vector<std::string>{"start warmup", "end warmup", "start measure", "end measure"}));
}

TEST(SingleStream, MaxQueriesCapsASubMicrosecondRun) {
  Harness h = Make("null:spin?us=0");
  RunSettings s;
  s.warmup_queries = 0;
  s.min_queries = 10;
  s.max_queries = 500;
  s.min_duration_ms = 60000;
  s.max_duration_ms = 60000;
  auto r = RunSingleStream(*h.session, {h.inputs}, Validate(s).take());
  EXPECT_EQ(r.stop_reason, "max_queries");
  EXPECT_EQ(r.measured.latency_ns.size(), 500u);
}

TEST(SingleStream, QueriesCycleThroughTheInputPool) {
  // fail_at counts runs; what we check is that sample i % 3 is used: the null backend echoes
  // its input, so the outputs' first values tell which sample ran.
  Harness h = Make("null:spin?us=0");
  std::vector<std::vector<Tensor>> pool;
  for (float v : {1.0f, 2.0f, 3.0f}) {
    std::vector<Tensor> sample = h.inputs;
    sample[0].as<float>()[0] = v;
    pool.push_back(sample);
  }
  struct Recording : Session {
    Session* inner;
    std::vector<float> firsts;
    const Signature& signature() const override { return inner->signature(); }
    Status Prepare(const std::vector<std::vector<int64_t>>& s) override { return inner->Prepare(s); }
    Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out) override {
      firsts.push_back(in[0].as<float>()[0]);
      return inner->Run(in, out);
    }
  } recording;
  recording.inner = h.session.get();
  auto r = RunSingleStream(recording, pool, Settings(1, 4, 0, 60000));
  EXPECT_EQ(recording.firsts, (std::vector<float>{1, 2, 3, 1, 2}));
}

}  // namespace
}  // namespace edgebench
