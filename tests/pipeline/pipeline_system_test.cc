// A pipeline as a system under test (pipeline/pipeline_system.h): every scenario drives it as it
// drives one model; each stage is timed per query with its calls (fan-out), and the stage times
// of a query add up to its end-to-end latency. Timing checks run on an injected clock that only
// the stages advance, so they are exact and never depend on the machine's load.
#include "pipeline/pipeline_system.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>

#include "load/closed_loop.h"
#include "load/scenario.h"
#include "load/single_stream.h"

#include "../load/short_run.h"
#include "fixed_stage.h"

namespace edgebench {
namespace {

using testing::FixedStage;

// decode (1 ms) -> detect (3 ms, finds 3 faces) -> feature (2 ms per face): 10 ms a frame.
PipelineSystem::Stages FaceStagesOnClock(std::atomic<int64_t>* clock, int64_t fail_feature_at = 0) {
  PipelineSystem::Stages stages;
  stages.push_back(std::make_unique<FixedStage>("decode", 1'000'000, 1, clock));
  stages.push_back(std::make_unique<FixedStage>("detect", 3'000'000, 3, clock));
  stages.push_back(std::make_unique<FixedStage>("feature", 2'000'000, 1, clock, fail_feature_at));
  return stages;
}

std::vector<std::vector<Tensor>> OnePipelineFrame() {
  Tensor t{"frame", DType::kUInt8, {1, 4}, std::vector<std::byte>(4, std::byte{7})};
  return {{t}};
}

TEST(PipelineSystem, StageTimesAddUpToEachQuerysLatencyWithFanOutCounted) {
  std::atomic<int64_t> clock{1'000'000'000};
  std::vector<PipelineSystem::Stages> lanes;
  lanes.push_back(FaceStagesOnClock(&clock));
  PipelineSystem pipeline(std::move(lanes), [&] { return clock.load(); });
  const auto settings = Validate(testing::ShortLoadRun()).take();
  const ScenarioResult result =
      RunSingleStream(pipeline, OnePipelineFrame(), settings, nullptr, [&] { return clock.load(); });
  ASSERT_TRUE(result.error.ok()) << result.error.message();
  ASSERT_EQ(result.measured.latency_ns.size(), 12u);
  for (int64_t latency : result.measured.latency_ns) EXPECT_EQ(latency, 10'000'000);  // 1 + 3 + 3 x 2 ms
  const LaneStageTimes& t = pipeline.times(0);
  EXPECT_EQ(pipeline.stage_names(), (std::vector<std::string>{"decode", "detect", "feature"}));
  ASSERT_EQ(t.query_start_ns.size(), 14u);  // 2 warmup + 12 measured
  for (size_t q = 0; q < t.query_start_ns.size(); ++q) {
    EXPECT_EQ(t.stage_ns[0][q], 1'000'000);
    EXPECT_EQ(t.stage_ns[1][q], 3'000'000);
    EXPECT_EQ(t.stage_ns[2][q], 6'000'000);
    EXPECT_EQ(t.stage_calls[0][q], 1);
    EXPECT_EQ(t.stage_calls[2][q], 3);  // once per face
    EXPECT_EQ(t.stage_ns[0][q] + t.stage_ns[1][q] + t.stage_ns[2][q], 10'000'000);
  }
}

TEST(PipelineSystem, EveryScenarioDrivesAPipelineOnItsLanes) {
  for (const std::string name : {"single-stream", "multi-stream:3", "server:500", "offline", "soak:300ms", "burst:3/5ms"}) {
    auto scenario = MakeScenario(name, testing::ShortLoadRun(), LlmSettings{});
    ASSERT_TRUE(scenario.ok()) << name << ": " << scenario.error();
    std::vector<PipelineSystem::Stages> lanes;
    for (int i = 0; i < scenario.value()->sessions_needed(); ++i) lanes.push_back(FaceStagesOnClock(nullptr));
    PipelineSystem pipeline(std::move(lanes));
    const auto pool = OnePipelineFrame();
    ScenarioContext context;
    context.system = &pipeline;
    context.input_pool = &pool;
    const ScenarioResult result = scenario.value()->Run(context);
    ASSERT_TRUE(result.error.ok()) << name << ": " << result.error.message();
    size_t timed = 0;
    for (int lane = 0; lane < pipeline.lanes(); ++lane) {
      const LaneStageTimes& t = pipeline.times(lane);
      timed += t.query_start_ns.size();
      for (size_t s = 0; s < 3; ++s) EXPECT_EQ(t.stage_ns[s].size(), t.query_start_ns.size()) << name;
      for (int32_t calls : t.stage_calls[2]) EXPECT_EQ(calls, 3) << name;
    }
    EXPECT_EQ(timed, result.warmup.latency_ns.size() + result.measured.latency_ns.size()) << name;
  }
}

TEST(PipelineSystem, AFailingStageFailsTheQueryNamingTheStage) {
  std::vector<PipelineSystem::Stages> lanes;
  lanes.push_back(FaceStagesOnClock(nullptr, /*fail_feature_at=*/5));  // the 2nd frame's 2nd face
  PipelineSystem pipeline(std::move(lanes));
  std::vector<Tensor> outputs;
  const auto frame = OnePipelineFrame()[0];
  ASSERT_TRUE(pipeline.IssueQuery(0, frame, outputs).ok());
  EXPECT_EQ(outputs.size(), 3u);  // one tensor per face
  const Status failed = pipeline.IssueQuery(0, frame, outputs);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.message(), "stage 'feature': a crop of zero size");
  const LaneStageTimes& t = pipeline.times(0);
  EXPECT_EQ(t.query_start_ns.size(), 1u);  // the failed query keeps no partial times
  for (size_t s = 0; s < 3; ++s) EXPECT_EQ(t.stage_ns[s].size(), 1u);
  EXPECT_FALSE(pipeline.IssueQuery(3, frame, outputs).ok());
}

}  // namespace
}  // namespace edgebench
