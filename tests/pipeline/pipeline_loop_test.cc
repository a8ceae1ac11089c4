// A pipeline's loop (pipeline/pipeline_system.h): the stages of a diffusion's denoising step
// run `steps` times per query, in order, each told its step; their time per query adds up the
// steps', each step's time is kept apart, and the diffusion record's per-step summary
// (worker/diffusion_case.h) reads them. Times come from an injected clock only the stages move.
#include <gtest/gtest.h>

#include <atomic>

#include "pipeline/pipeline_system.h"
#include "worker/diffusion_case.h"

#include "fixed_stage.h"

namespace edgebench {
namespace {

using testing::FixedStage;

// Remembers the steps it was told, and makes its first step of each query cost `first_ns`.
class StepStage final : public Stage {
 public:
  StepStage(std::string name, int64_t first_ns, int64_t later_ns, std::atomic<int64_t>* clock, std::vector<int>* seen)
      : name_(std::move(name)), first_ns_(first_ns), later_ns_(later_ns), clock_(clock), seen_(seen) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kModel; }
  void SetStep(int step) override { step_ = step; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    *clock_ += step_ == 0 ? first_ns_ : later_ns_;
    seen_->push_back(step_);
    out.push_back({in, frame});
    return Status::Ok();
  }

 private:
  std::string name_;
  int64_t first_ns_, later_ns_;
  std::atomic<int64_t>* clock_;
  std::vector<int>* seen_;
  int step_ = -1;
};

struct LoopFixture {
  std::atomic<int64_t> clock{0};
  std::vector<int> unet_steps;

  // encode 1 ms; unet 9 ms at step 0, 4 ms later; scheduler 1 ms per step; decode 2 ms.
  PipelineSystem Make(int steps) {
    std::vector<PipelineSystem::Stages> lanes(1);
    lanes[0].push_back(std::make_unique<FixedStage>("text_encoder", 1'000'000, 1, &clock));
    lanes[0].push_back(std::make_unique<StepStage>("unet", 9'000'000, 4'000'000, &clock, &unet_steps));
    lanes[0].push_back(std::make_unique<FixedStage>("scheduler", 1'000'000, 1, &clock));
    lanes[0].push_back(std::make_unique<FixedStage>("vae_decoder", 2'000'000, 1, &clock));
    return PipelineSystem(std::move(lanes), [this] { return clock.load(); }, [] { return int64_t{0}; },
                          PipelineLoop{1, 2, steps});
  }
};

std::vector<Tensor> OneLoopInput() { return {Tensor{"x", DType::kFloat32, {1}, std::vector<std::byte>(4)}}; }

TEST(PipelineLoop, LoopStagesRunOncePerStepInOrderAndTheirTimesAddUp) {
  LoopFixture f;
  PipelineSystem system = f.Make(4);
  std::vector<Tensor> out;
  for (int q = 0; q < 2; ++q) {
    const int64_t before = f.clock.load();
    ASSERT_TRUE(system.IssueQuery(0, OneLoopInput(), out).ok());
    // 1 + (9 + 1) + 3 x (4 + 1) + 2 = 28 ms a query.
    EXPECT_EQ(f.clock.load() - before, 28'000'000);
  }
  EXPECT_EQ(f.unet_steps, (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
  const LaneStageTimes& t = system.times(0);
  EXPECT_EQ(t.stage_ns[0], (std::vector<int64_t>{1'000'000, 1'000'000}));
  EXPECT_EQ(t.stage_ns[1], (std::vector<int64_t>{21'000'000, 21'000'000}));
  EXPECT_EQ(t.stage_calls[1], (std::vector<int32_t>{4, 4}));
  EXPECT_EQ(t.stage_calls[2], (std::vector<int32_t>{4, 4}));
  EXPECT_EQ(t.stage_calls[3], (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(t.step_ns[1], (std::vector<int64_t>{9'000'000, 4'000'000, 4'000'000, 4'000'000, 9'000'000, 4'000'000,
                                                4'000'000, 4'000'000}));
  EXPECT_TRUE(t.step_ns[0].empty());
  EXPECT_TRUE(t.step_ns[3].empty());
  EXPECT_EQ(t.step_ns[2].size(), 8u);
}

TEST(PipelineLoop, TheStepSummaryParts1stStepFromTheLaterOnes) {
  LoopFixture f;
  PipelineSystem system = f.Make(5);
  std::vector<Tensor> out;
  for (int q = 0; q < 3; ++q) ASSERT_TRUE(system.IssueQuery(0, OneLoopInput(), out).ok());
  // The first query is outside the measured window.
  const int64_t second = system.times(0).query_start_ns[1];
  const auto steps = SummarizeDiffusionSteps(system, second, f.clock.load() + 1);
  ASSERT_EQ(steps.size(), 2u);
  const DiffusionStepRecord& unet = steps[0];
  EXPECT_EQ(unet.stage, "unet");
  EXPECT_EQ(unet.steps, 5);
  EXPECT_EQ(unet.images, 2);
  EXPECT_EQ(unet.first_p50_ns, 9'000'000);
  EXPECT_EQ(unet.later_p50_ns, 4'000'000);
  EXPECT_DOUBLE_EQ(unet.first_mean_ns, 9e6);
  EXPECT_DOUBLE_EQ(unet.later_mean_ns, 4e6);
  EXPECT_DOUBLE_EQ(unet.mean_ns, (9e6 + 4 * 4e6) / 5);
  EXPECT_EQ(unet.max_ns, 9'000'000);
  EXPECT_EQ(unet.by_step_p50_ns, (std::vector<int64_t>{9'000'000, 4'000'000, 4'000'000, 4'000'000, 4'000'000}));
  ASSERT_EQ(unet.samples_ns.size(), 2u);
  EXPECT_EQ(unet.samples_ns[0].size(), 5u);
  EXPECT_EQ(steps[1].stage, "scheduler");
  // One image: no percentile, but each step index still has its time.
  const auto one = SummarizeDiffusionSteps(system, system.times(0).query_start_ns[2], f.clock.load() + 1);
  EXPECT_EQ(one[0].images, 1);
  EXPECT_FALSE(one[0].first_p50_ns.has_value());
  EXPECT_DOUBLE_EQ(one[0].first_mean_ns, 9e6);
  EXPECT_EQ(one[0].by_step_p50_ns, (std::vector<int64_t>{9'000'000, 4'000'000, 4'000'000, 4'000'000, 4'000'000}));
  EXPECT_EQ(steps[1].first_p50_ns, 1'000'000);
}

TEST(PipelineLoop, AFailedStepFailsTheQueryAndKeepsNoTimesOfIt) {
  std::atomic<int64_t> clock{0};
  std::vector<PipelineSystem::Stages> lanes(1);
  lanes[0].push_back(std::make_unique<FixedStage>("text_encoder", 1, 1, &clock));
  lanes[0].push_back(std::make_unique<FixedStage>("unet", 1, 1, &clock, /*fail_at=*/3));
  lanes[0].push_back(std::make_unique<FixedStage>("vae_decoder", 1, 1, &clock));
  PipelineSystem system(std::move(lanes), [&] { return clock.load(); }, [] { return int64_t{0}; },
                        PipelineLoop{1, 1, 2});
  std::vector<Tensor> out;
  ASSERT_TRUE(system.IssueQuery(0, OneLoopInput(), out).ok());  // unet calls 1, 2
  const Status failed = system.IssueQuery(0, OneLoopInput(), out);  // unet call 3: its first step
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.message().find("stage 'unet'"), std::string::npos) << failed.message();
  const LaneStageTimes& t = system.times(0);
  EXPECT_EQ(t.query_start_ns.size(), 1u);
  EXPECT_EQ(t.stage_ns[0].size(), 1u);
  EXPECT_EQ(t.step_ns[1].size(), 2u);
}

TEST(PipelineLoop, AnImpossibleLoopIsNoLoop) {
  std::atomic<int64_t> clock{0};
  std::vector<PipelineSystem::Stages> lanes(1);
  lanes[0].push_back(std::make_unique<FixedStage>("only", 1, 1, &clock));
  PipelineSystem system(std::move(lanes), [&] { return clock.load(); }, {}, PipelineLoop{0, 3, 4});
  EXPECT_EQ(system.loop().count, 0u);
  std::vector<Tensor> out;
  ASSERT_TRUE(system.IssueQuery(0, OneLoopInput(), out).ok());
  EXPECT_EQ(system.times(0).stage_calls[0], (std::vector<int32_t>{1}));
}

}  // namespace
}  // namespace edgebench
