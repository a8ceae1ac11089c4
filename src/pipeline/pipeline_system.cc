#include "pipeline/pipeline_system.h"

#include <nlohmann/json.hpp>

#include "core/crash_note.h"

namespace edgebench {

PipelineSystem::PipelineSystem(std::vector<Stages> lanes, std::function<int64_t()> now,
                               std::function<int64_t()> cpu_now, PipelineLoop loop)
    : lanes_(std::move(lanes)),
      now_(now ? std::move(now) : std::function<int64_t()>(NowNs)),
      cpu_now_(cpu_now ? std::move(cpu_now) : std::function<int64_t()>(ThreadCpuNs)),
      loop_(loop) {
  if (!lanes_.empty()) {
    for (const auto& stage : lanes_.front()) {
      names_.push_back(stage->name());
      kinds_.push_back(stage->kind());
      crash_notes_.push_back(nlohmann::json{{"stage", "run, pipeline stage " + stage->name()}}.dump() + "\n");
    }
  }
  if (loop_.first + loop_.count > names_.size() || loop_.steps < 1) loop_ = PipelineLoop{};
  const size_t stages = names_.size();
  times_.resize(lanes_.size());
  for (LaneStageTimes& t : times_) {
    t.stage_ns.resize(stages);
    t.stage_calls.resize(stages);
    t.stage_cpu_ns.resize(stages);
    t.step_ns.resize(stages);
  }
  query_.resize(lanes_.size());
  for (QueryTimes& q : query_) {
    q.ns.resize(stages);
    q.cpu_ns.resize(stages);
    q.calls.resize(stages);
    q.steps_ns.resize(stages * static_cast<size_t>(loop_.steps));
  }
  current_.resize(lanes_.size());
  next_.resize(lanes_.size());
}

// One run of stage `stage` over the lane's items (the query's inputs for the first stage): its
// wall time, its thread's CPU time (host stages) and how many items it ran on.
Status PipelineSystem::RunStage(size_t lane, size_t stage, const std::vector<Tensor>& inputs, bool first,
                                int64_t& ns, int64_t& cpu_ns, int32_t& calls) {
  static const Frame kNoFrame;
  std::vector<StageItem>& items = current_[lane];
  std::vector<StageItem>& next = next_[lane];
  Stage& s = *lanes_[lane][stage];
  next.clear();
  const bool host = kinds_[stage] == StageKind::kHost;
  SetCrashNote(&crash_notes_[stage]);
  // The CPU clock is a system call, where a busy machine may switch threads: read inside the
  // wall-clock reads, a wait there is the stage's, not lost between stages.
  const int64_t start = now_();
  const int64_t cpu_start = host ? cpu_now_() : 0;
  // The first stage reads the query's inputs in place (a frame is not copied); the others
  // read what the stage before made.
  const size_t count = first ? 1 : items.size();
  for (size_t i = 0; i < count; ++i) {
    const std::vector<Tensor>& in = first ? inputs : items[i].tensors;
    const Frame& frame = first ? kNoFrame : items[i].frame;
    if (Status status = s.Run(in, frame, next); !status.ok()) {
      SetCrashNote(nullptr);
      return Status::Error("stage '" + s.name() + "': " + status.message());
    }
  }
  const int64_t cpu_end = host ? cpu_now_() : 0;
  const int64_t end = now_();
  SetCrashNote(nullptr);
  ns = end - start;
  cpu_ns = cpu_end - cpu_start;
  calls = static_cast<int32_t>(count);
  items.swap(next);
  return Status::Ok();
}

Status PipelineSystem::IssueQuery(int lane, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) {
  const auto index = static_cast<size_t>(lane);
  if (lane < 0 || index >= lanes_.size()) {
    return Status::Error("internal: the pipeline has no lane " + std::to_string(lane));
  }
  const size_t stages = names_.size();
  LaneStageTimes& times = times_[index];
  QueryTimes& query = query_[index];
  const int64_t query_start = now_();
  const auto steps = static_cast<size_t>(loop_.steps);
  for (size_t s = 0; s < stages;) {
    if (in_loop(s)) {
      // The loop's stages, step after step; their times per query add up the steps'.
      for (size_t l = s; l < s + loop_.count; ++l) query.ns[l] = query.cpu_ns[l] = query.calls[l] = 0;
      for (size_t step = 0; step < steps; ++step) {
        for (size_t l = s; l < s + loop_.count; ++l) {
          lanes_[index][l]->SetStep(static_cast<int>(step));
          int64_t ns = 0, cpu = 0;
          int32_t calls = 0;
          if (Status status = RunStage(index, l, inputs, l == 0 && step == 0, ns, cpu, calls); !status.ok()) {
            return status;
          }
          query.ns[l] += ns;
          query.cpu_ns[l] += cpu;
          query.calls[l] += calls;
          query.steps_ns[l * steps + step] = ns;
        }
      }
      s += loop_.count;
      continue;
    }
    if (Status status = RunStage(index, s, inputs, s == 0, query.ns[s], query.cpu_ns[s], query.calls[s]);
        !status.ok()) {
      return status;
    }
    ++s;
  }
  // A failed query returned above: every query in `times` ran all its stages.
  if (times.query_start_ns.size() < kMaxTimedQueriesPerLane) {
    times.query_start_ns.push_back(query_start);
    for (size_t s = 0; s < stages; ++s) {
      times.stage_ns[s].push_back(query.ns[s]);
      times.stage_calls[s].push_back(query.calls[s]);
      if (kinds_[s] == StageKind::kHost) times.stage_cpu_ns[s].push_back(query.cpu_ns[s]);
      if (in_loop(s)) {
        times.step_ns[s].insert(times.step_ns[s].end(), query.steps_ns.begin() + static_cast<std::ptrdiff_t>(s * steps),
                                query.steps_ns.begin() + static_cast<std::ptrdiff_t>((s + 1) * steps));
      }
    }
  } else {
    ++times.untimed_queries;
  }
  outputs.clear();
  if (stages == 0) {
    outputs = inputs;
    return Status::Ok();
  }
  for (StageItem& item : current_[index]) {
    for (Tensor& t : item.tensors) outputs.push_back(std::move(t));
  }
  if (index == 0 && !kept_first_outputs_) {
    first_outputs_ = outputs;
    kept_first_outputs_ = true;
  }
  return Status::Ok();
}

}  // namespace edgebench
