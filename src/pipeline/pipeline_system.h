// A pipeline as a system under test (load/system_under_test.h): each query runs the stages in
// order on its lane's own stage instances, so every scenario (single-stream, multi-stream:N,
// server, offline, soak, burst) drives a pipeline exactly as it drives one model. Each lane
// times its stages on the harness clock: per query its start, and per stage the wall time of
// all its calls and how many items it ran on. The scenario times the query end to end, so
// the stage times of a query add up to its latency up to the harness's few clock reads.
//
// A pipeline may have one loop: consecutive stages that run `steps` times over per query (a
// diffusion's UNet, guidance and scheduler per denoising step). A loop stage's time per query
// is that of all its steps, its calls the steps times the items, and each step's time is kept
// apart (LaneStageTimes::step_ns) for the per-step distribution and the first step's.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.h"
#include "load/system_under_test.h"
#include "pipeline/stage.h"

namespace edgebench {

// What one lane timed, query by query in issue order.
struct LaneStageTimes {
  std::vector<int64_t> query_start_ns;           // harness clock at the query's first stage
  std::vector<std::vector<int64_t>> stage_ns;    // [stage][query]: wall time of all its calls
  std::vector<std::vector<int32_t>> stage_calls; // [stage][query]: items it ran on (fan-out)
  // [stage][query]: the lane thread's CPU time in the stage; host stages only (a model stage's
  // runtime works on threads of its own: its rows stay empty).
  std::vector<std::vector<int64_t>> stage_cpu_ns;
  // [stage][query * steps + step]: a loop stage's time in each step; empty for the others.
  std::vector<std::vector<int64_t>> step_ns;
  // Queries answered after the lane kept kMaxTimedQueriesPerLane: run, not timed per stage.
  int64_t untimed_queries = 0;
};

// A lane keeps the stage times of at most this many queries (about 40 bytes a query for three
// stages): a soak of hours at a high rate keeps its first million, and says how many more ran.
inline constexpr size_t kMaxTimedQueriesPerLane = 1'000'000;

// Stages [first, first + count) run `steps` times per query, in order, each step on what the
// step before made. count 0: no loop.
struct PipelineLoop {
  size_t first = 0;
  size_t count = 0;
  int steps = 1;
};

class PipelineSystem final : public SystemUnderTest {
 public:
  using Stages = std::vector<std::unique_ptr<Stage>>;
  // One list of stages per lane (each lane's own sessions and buffers), all with the same
  // stage names in the same order. A lane is used by one thread at a time: give one lane per
  // stream, or one lane for a single stream.
  // `now`: the harness clock; `cpu_now`: the calling thread's CPU time (both default to the
  // real ones; tests inject their own).
  explicit PipelineSystem(std::vector<Stages> lanes, std::function<int64_t()> now = {},
                          std::function<int64_t()> cpu_now = {}, PipelineLoop loop = {});

  int lanes() const override { return static_cast<int>(lanes_.size()); }
  // Runs the stages; a stage's error fails the query naming the stage ("stage 'crop': ...").
  // `outputs`: the last stage's items' tensors, in order.
  Status IssueQuery(int lane, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override;

  const std::vector<std::string>& stage_names() const { return names_; }
  const std::vector<StageKind>& stage_kinds() const { return kinds_; }
  // The outputs of lane 0's first answered query (copied once), for a look at what came out
  // (a diffusion's image and final latents). Read once the scenario is over.
  const std::vector<Tensor>& first_outputs() const { return first_outputs_; }
  const PipelineLoop& loop() const { return loop_; }
  bool in_loop(size_t stage) const { return loop_.count > 0 && stage >= loop_.first && stage < loop_.first + loop_.count; }
  const LaneStageTimes& times(int lane) const { return times_[static_cast<size_t>(lane)]; }
  // A lane's stages themselves, for a benchmark's hand-written loop over the very same stages
  // and sessions (bench/pipeline_overhead_bench.cc). Not while a query runs on the lane.
  Stages& lane_stages(int lane) { return lanes_[static_cast<size_t>(lane)]; }

 private:
  std::vector<Stages> lanes_;
  std::vector<std::string> names_;
  std::vector<StageKind> kinds_;
  // Per stage, the worker's crash note (core/crash_note.h): {"stage":"run, pipeline stage NAME"}.
  std::vector<std::string> crash_notes_;
  std::vector<LaneStageTimes> times_;
  std::function<int64_t()> now_;
  std::function<int64_t()> cpu_now_;
  PipelineLoop loop_;
  std::vector<Tensor> first_outputs_;
  bool kept_first_outputs_ = false;
  // Per lane, the query being run's times, kept in `times_` once every stage ran.
  struct QueryTimes {
    std::vector<int64_t> ns, cpu_ns, steps_ns;  // per stage; [stage * steps + step]
    std::vector<int32_t> calls;
  };
  std::vector<QueryTimes> query_;
  Status RunStage(size_t lane, size_t stage, const std::vector<Tensor>& inputs, bool first, int64_t& ns,
                  int64_t& cpu_ns, int32_t& calls);
  // Per lane: the items between stages, kept to reuse their capacity.
  std::vector<std::vector<StageItem>> current_, next_;
};

}  // namespace edgebench
