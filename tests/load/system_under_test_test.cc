// Scenarios drive a system under test, not a session: every scenario runs on a system that is
// not a model session (as a pipeline of several models will be), issuing every query to it on
// the lanes it offers, and fails with the system's own error.
#include "load/system_under_test.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>

#include "load/scenario.h"
#include "short_run.h"

namespace edgebench {
namespace {

// Answers every query with its input, counting queries per lane; fails query `fail_at` (0: never).
class EchoSystem : public SystemUnderTest {
 public:
  EchoSystem(int lanes, int64_t fail_at = 0) : lanes_(lanes), fail_at_(fail_at), per_lane_(static_cast<size_t>(lanes)) {}
  int lanes() const override { return lanes_; }
  Status IssueQuery(int lane, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (lane < 0 || lane >= lanes_) return Status::Error("no lane " + std::to_string(lane));
    const int64_t n = ++total_;
    ++per_lane_[static_cast<size_t>(lane)];
    if (fail_at_ > 0 && n == fail_at_) return Status::Error("stage 2 of the pipeline failed");
    outputs = inputs;
    return Status::Ok();
  }
  int64_t total() const { return total_.load(); }
  int64_t on_lane(int lane) const { return per_lane_[static_cast<size_t>(lane)].load(); }

 private:
  int lanes_;
  int64_t fail_at_;
  std::atomic<int64_t> total_{0};
  std::vector<std::atomic<int64_t>> per_lane_;
};

std::vector<std::vector<Tensor>> OneSample() {
  Tensor t{"x", DType::kFloat32, {1}, std::vector<std::byte>(4, std::byte{0})};
  return {{t}};
}

TEST(SystemUnderTest, EveryScenarioIssuesEachQueryToTheSystemOnItsLanes) {
  const auto pool = OneSample();
  for (const std::string name : {"single-stream", "multi-stream:3", "server:2000", "offline", "soak:1s", "burst:3/5ms"}) {
    auto scenario = MakeScenario(name, testing::ShortLoadRun(), LlmSettings{});
    ASSERT_TRUE(scenario.ok()) << name << ": " << scenario.error();
    EchoSystem system(scenario.value()->sessions_needed());
    ScenarioContext context;
    context.system = &system;  // no session at all
    context.input_pool = &pool;
    const ScenarioResult result = scenario.value()->Run(context);
    EXPECT_TRUE(result.error.ok()) << name << ": " << result.error.message();
    // A soak past its raw-sample cap keeps histograms instead of samples (the echo is that fast).
    const int64_t measured = result.measured_histograms ? result.measured_histograms->count()
                                                        : static_cast<int64_t>(result.measured.latency_ns.size());
    const int64_t answered = static_cast<int64_t>(result.warmup.latency_ns.size()) + measured;
    EXPECT_GE(measured, 1) << name;
    EXPECT_EQ(system.total(), answered) << name << ": every query the result counts went to the system, once";
    for (int lane = 0; lane < system.lanes(); ++lane) EXPECT_GT(system.on_lane(lane), 0) << name << " lane " << lane;
  }
}

TEST(SystemUnderTest, TheSystemsFailureStopsTheScenarioWithItsMessage) {
  const auto pool = OneSample();
  for (const std::string name : {"single-stream", "multi-stream:2", "server:2000"}) {
    auto scenario = MakeScenario(name, testing::ShortLoadRun(), LlmSettings{});
    ASSERT_TRUE(scenario.ok()) << scenario.error();
    EchoSystem system(scenario.value()->sessions_needed(), /*fail_at=*/5);
    ScenarioContext context;
    context.system = &system;
    context.input_pool = &pool;
    const ScenarioResult result = scenario.value()->Run(context);
    ASSERT_FALSE(result.error.ok()) << name;
    EXPECT_EQ(result.error.message(), "stage 2 of the pipeline failed") << name;
    EXPECT_EQ(result.stop_reason, "error") << name;
  }
}

}  // namespace
}  // namespace edgebench
