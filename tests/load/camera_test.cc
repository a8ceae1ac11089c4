// camera:N@FPS (load/scenarios/camera.h): its name, its plan, and the frame loop
// (load/camera_stream.h) on an injected clock, whose frames delivered, dropped and late are
// counted here by hand; then the streams on null sessions and the record's frame accounting.
#include "load/scenarios/camera.h"

#include <gtest/gtest.h>

#include "load/scenario_registry.h"
#include "null_sessions.h"
#include "stats/camera_summary.h"

namespace edgebench {
namespace {

constexpr int64_t kFrameMs = 1'000'000;

TEST(Camera, ItsNameParsesAndPrintsThroughTheRegistry) {
  auto spec = ParseScenario("camera:4@10fps");
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec.value().entry, &kCameraScenario);
  EXPECT_EQ(spec.value().streams, 4);
  EXPECT_EQ(spec.value().fps, 10);
  EXPECT_EQ(spec.value().frame_queue, 1);
  EXPECT_EQ(spec.value().Canonical(), "camera:4@10fps");
  EXPECT_EQ(ParseScenario("camera:4@10").value().Canonical(), "camera:4@10fps");
  EXPECT_EQ(ParseScenario("camera:4@10fps/drop").value().Canonical(), "camera:4@10fps");
  EXPECT_EQ(ParseScenario("camera:2@29.97fps/queue").value().Canonical(), "camera:2@29.97fps/queue");
  EXPECT_EQ(ParseScenario("camera:2@30fps/queue:3").value().frame_queue, 3);
  EXPECT_EQ(ParseScenario("camera:2@30fps/queue:1").value().Canonical(), "camera:2@30fps");
  for (const char* bad : {"camera", "camera:", "camera:4", "camera:0@10fps", "camera:4@0fps", "camera:4@2000fps",
                          "camera:4@fps", "camera:x@10", "camera:4@10fps/lifo", "camera:4@10fps/queue:0",
                          "camera:4@-1fps", "camera:4@1e3fps"}) {
    auto parsed = ParseScenario(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().find("camera:N@FPS"), std::string::npos) << parsed.error();
  }
  auto made = MakeScenario("camera:3@20fps", RunSettings{}, LlmSettings{});
  ASSERT_TRUE(made.ok()) << made.error();
  EXPECT_EQ(made.value()->name(), "camera:3@20fps");
  EXPECT_EQ(made.value()->sessions_needed(), 3);
}

TEST(Camera, ThePlanCoversBothMinimaWithinTheMaxima) {
  RunSettings s;
  s.warmup_queries = 10;
  s.min_queries = 100;
  s.min_duration_ms = 0;
  s.max_duration_ms = 60'000;
  CameraPlan plan = PlanCameras(4, 10, 1, s);
  EXPECT_EQ(plan.period_ns, 100 * kFrameMs);
  EXPECT_EQ(plan.frames, 25);
  EXPECT_EQ(plan.warmup_per_stream, 3);
  s.min_duration_ms = 5000;
  EXPECT_EQ(PlanCameras(4, 10, 1, s).frames, 50);
  EXPECT_EQ(PlanCameras(4, 30, 1, s).period_ns, 33'333'333);
  EXPECT_EQ(CameraStreamPlanOf(plan, 0).offset_ns, 0);
  EXPECT_EQ(CameraStreamPlanOf(plan, 3).offset_ns, 75 * kFrameMs);  // staggered over one period
}

// A clock that moves only when the stream waits or a frame runs: each frame takes the next of
// `service` (ms), so every arrival, drop and completion below is counted by hand.
struct FakeCamera {
  explicit FakeCamera(std::vector<int64_t> service, int fail = -1) : service_ms(std::move(service)), fail_at(fail) {}
  int64_t now = 0;
  std::vector<int64_t> service_ms;
  std::vector<int64_t> ran;  // frames in the order they ran
  int fail_at = -1;
  CameraStreamResult Run(const CameraStreamPlan& plan) {
    CameraStreamClock clock{[this] { return now; }, [this](int64_t t) { now = std::max(now, t); }};
    return RunCameraStream(plan, 0, clock, [this](int64_t frame) {
      if (static_cast<int>(ran.size()) == fail_at) return false;
      now += service_ms[ran.size() % service_ms.size()] * kFrameMs;
      ran.push_back(frame);
      return true;
    });
  }
};

CameraStreamPlan StreamPlan(int64_t period_ms, int64_t frames, int64_t depth, int64_t max_ms = 0) {
  CameraStreamPlan p;
  p.period_ns = period_ms * kFrameMs;
  p.frames = frames;
  p.queue_depth = depth;
  p.max_duration_ns = max_ms * kFrameMs;
  return p;
}

TEST(CameraStream, DropKeepsTheNewestFrameWhenTheLastOverruns) {
  // Frames every 100 ms, each taking 150: f0 0-150; f1 150-300; f2 and f3 arrived by 300, f2
  // dropped; f3 300-450; f4 450-600; f5 600-750. Every frame ran past the next's arrival.
  FakeCamera camera({150});
  const CameraStreamResult r = camera.Run(StreamPlan(100, 6, 1));
  EXPECT_EQ(camera.ran, (std::vector<int64_t>{0, 1, 3, 4, 5}));
  EXPECT_EQ(r.delivered, 6);
  EXPECT_EQ(r.dropped, 1);
  EXPECT_EQ(r.late, 5);
  EXPECT_EQ(r.latency_ns, (std::vector<int64_t>{150 * kFrameMs, 200 * kFrameMs, 150 * kFrameMs, 200 * kFrameMs, 250 * kFrameMs}));
  EXPECT_EQ(r.arrival_ns, (std::vector<int64_t>{0, 100 * kFrameMs, 300 * kFrameMs, 400 * kFrameMs, 500 * kFrameMs}));
  EXPECT_EQ(r.last_end_ns, 750 * kFrameMs);
  EXPECT_FALSE(r.hit_max_duration);
}

TEST(CameraStream, QueueRunsEveryFrameAndTheWaitGrows) {
  FakeCamera camera({150});
  const CameraStreamResult r = camera.Run(StreamPlan(100, 6, 0));
  EXPECT_EQ(camera.ran, (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(r.dropped, 0);
  EXPECT_EQ(r.late, 6);
  EXPECT_EQ(r.latency_ns.back(), 400 * kFrameMs);  // f5 arrived at 500, ran 750-900
}

TEST(CameraStream, ABoundedQueueDropsItsOldest) {
  // 250 ms a frame, two may wait: f0 0-250; f1 250-500 (f2 waits); f3, f4 and f5 have arrived
  // by 500 (f5 at 500 exactly), so f2 and f3 are dropped; f4 500-750; f5 750-1000.
  FakeCamera camera({250});
  const CameraStreamResult r = camera.Run(StreamPlan(100, 6, 2));
  EXPECT_EQ(camera.ran, (std::vector<int64_t>{0, 1, 4, 5}));
  EXPECT_EQ(r.dropped, 2);
  EXPECT_EQ(r.late, 4);
  EXPECT_EQ(r.latency_ns.back(), 500 * kFrameMs);
}

TEST(CameraStream, AStreamThatKeepsUpWaitsForEachArrival) {
  // 30 ms a frame, and one of 120 ms: only that one is late (done after the next arrived), and
  // the next frame it delayed is not dropped but completes 50 ms after its arrival.
  FakeCamera camera({30, 120, 30, 30});
  const CameraStreamResult r = camera.Run(StreamPlan(100, 4, 1));
  EXPECT_EQ(r.dropped, 0);
  EXPECT_EQ(r.late, 1);
  EXPECT_EQ(r.latency_ns, (std::vector<int64_t>{30 * kFrameMs, 120 * kFrameMs, 50 * kFrameMs, 30 * kFrameMs}));
  EXPECT_EQ(r.last_end_ns, 330 * kFrameMs);
}

TEST(CameraStream, AFrameDoneAsTheNextArrivesIsOnTime) {
  FakeCamera camera({100});
  const CameraStreamResult r = camera.Run(StreamPlan(100, 3, 1));
  EXPECT_EQ(r.dropped, 0);
  EXPECT_EQ(r.late, 0);
  EXPECT_EQ(r.latency_ns, (std::vector<int64_t>{100 * kFrameMs, 100 * kFrameMs, 100 * kFrameMs}));
}

TEST(CameraStream, MaxDurationStopsDeliveryAndCountsTheFramesLeftWaiting) {
  // 10 frames planned, 350 ms allowed: frames at 0..300 run (30 ms each), none arrives at 400.
  FakeCamera fast({30});
  CameraStreamResult r = fast.Run(StreamPlan(100, 10, 1, 350));
  EXPECT_EQ(r.delivered, 4);
  EXPECT_EQ(r.unserved, 0);
  EXPECT_TRUE(r.hit_max_duration);
  // A queue still holding frames at the limit: 300 ms a frame, every frame queued.
  FakeCamera slow({300});
  r = slow.Run(StreamPlan(100, 10, 0, 350));
  EXPECT_EQ(slow.ran, (std::vector<int64_t>{0, 1}));  // 0-300, 300-600; then past the limit
  EXPECT_EQ(r.delivered, 4);                           // 0, 100, 200, 300 (400 is past 350)
  EXPECT_EQ(r.unserved, 2);
  EXPECT_TRUE(r.hit_max_duration);
}

TEST(CameraStream, AFailedFrameStopsTheStream) {
  FakeCamera camera({10}, 2);
  const CameraStreamResult r = camera.Run(StreamPlan(100, 6, 1));
  EXPECT_TRUE(r.failed);
  EXPECT_EQ(r.latency_ns.size(), 2u);
}

TEST(Camera, StreamsOnNullSessionsAreStaggeredAndAccountForEveryFrame) {
  auto sessions = testing::MakeNullSessions("null:sleep?us=1000", 3);
  CameraPlan plan;
  plan.streams = 3;
  plan.period_ns = 30 * kFrameMs;
  plan.frames = 5;
  plan.warmup_per_stream = 1;
  plan.max_duration_ns = 10'000 * kFrameMs;
  const ScenarioResult r = RunCameras(sessions->raw, sessions->pool, plan);
  ASSERT_TRUE(r.error.ok()) << r.error.message();
  EXPECT_EQ(r.warmup.latency_ns.size(), 3u);
  ASSERT_EQ(r.frames_delivered, (std::vector<int64_t>{5, 5, 5}));
  int64_t dropped = 0;
  for (int64_t d : r.frames_dropped) dropped += d;
  ASSERT_EQ(static_cast<int64_t>(r.measured.latency_ns.size()) + dropped, 15);
  for (size_t i = 0; i < r.measured.issue_ns.size(); ++i) {
    const int64_t offset = r.measured.stream[i] * 10 * kFrameMs;  // 30 ms / 3 streams
    EXPECT_EQ((r.measured.issue_ns[i] - offset) % plan.period_ns, 0) << i;
    EXPECT_GE(r.measured.latency_ns[i], kFrameMs) << "a frame of a 1 ms session";
  }
  EXPECT_GE(r.measured_wall_ns, 5 * plan.period_ns);
  EXPECT_EQ(r.stop_reason, "min_queries_and_duration");
}

TEST(Camera, AFailingSessionStopsTheRunAndIsNamed) {
  auto sessions = testing::MakeNullSessions("null:sleep?us=100&fail_at=3", 2);
  CameraPlan plan;
  plan.streams = 2;
  plan.period_ns = 5 * kFrameMs;
  plan.frames = 10;
  plan.max_duration_ns = 10'000 * kFrameMs;
  const ScenarioResult r = RunCameras(sessions->raw, sessions->pool, plan);
  EXPECT_FALSE(r.error.ok());
  EXPECT_EQ(r.failed_stage, "run");
  EXPECT_EQ(r.stop_reason, "error");
}

TEST(CameraSummary, CountsPerStreamAndInTotal) {
  // Stream 0: 3 frames of 4 delivered, one dropped, one late (150 > 100); stream 1: 2 of 2.
  const std::vector<int64_t> latency = {50 * kFrameMs, 150 * kFrameMs, 20 * kFrameMs, 40 * kFrameMs, 100 * kFrameMs};
  const std::vector<int32_t> stream = {0, 0, 1, 0, 1};
  std::string why;
  const auto c = SummarizeCamera(latency, stream, {4, 2}, {1, 0}, 100 * kFrameMs, 2'000 * kFrameMs, &why);
  ASSERT_TRUE(c) << why;
  EXPECT_EQ(c->offered_fps, 10);
  EXPECT_EQ(c->streams[0].processed, 3);
  EXPECT_EQ(c->streams[0].late, 1);
  EXPECT_EQ(c->streams[1].late, 0);  // exactly one period is on time
  EXPECT_DOUBLE_EQ(c->streams[0].fps, 1.5);
  EXPECT_DOUBLE_EQ(c->slowest_stream_fps, 1.0);
  EXPECT_EQ(c->total.delivered, 6);
  EXPECT_DOUBLE_EQ(c->dropped_fraction, 1.0 / 6);
  EXPECT_DOUBLE_EQ(c->late_fraction, 1.0 / 5);
  EXPECT_FALSE(SummarizeCamera(latency, stream, {2, 2}, {1, 0}, 100 * kFrameMs, 2'000 * kFrameMs, &why));
  EXPECT_NE(why.find("stream 0"), std::string::npos) << why;
  EXPECT_FALSE(SummarizeCamera(latency, stream, {4}, {1}, 100 * kFrameMs, 2'000 * kFrameMs, &why));
  EXPECT_NE(why.find("stream 1"), std::string::npos) << why;
}

}  // namespace
}  // namespace edgebench
