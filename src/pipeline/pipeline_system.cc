#include "pipeline/pipeline_system.h"

#include <nlohmann/json.hpp>

#include "core/crash_note.h"

namespace edgebench {

PipelineSystem::PipelineSystem(std::vector<Stages> lanes, std::function<int64_t()> now,
                               std::function<int64_t()> cpu_now)
    : lanes_(std::move(lanes)),
      now_(now ? std::move(now) : std::function<int64_t()>(NowNs)),
      cpu_now_(cpu_now ? std::move(cpu_now) : std::function<int64_t()>(ThreadCpuNs)) {
  if (!lanes_.empty()) {
    for (const auto& stage : lanes_.front()) {
      names_.push_back(stage->name());
      kinds_.push_back(stage->kind());
      crash_notes_.push_back(nlohmann::json{{"stage", "run, pipeline stage " + stage->name()}}.dump() + "\n");
    }
  }
  times_.resize(lanes_.size());
  for (LaneStageTimes& t : times_) {
    t.stage_ns.resize(names_.size());
    t.stage_calls.resize(names_.size());
    t.stage_cpu_ns.resize(names_.size());
  }
  current_.resize(lanes_.size());
  next_.resize(lanes_.size());
}

Status PipelineSystem::IssueQuery(int lane, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) {
  const auto index = static_cast<size_t>(lane);
  if (lane < 0 || index >= lanes_.size()) {
    return Status::Error("internal: the pipeline has no lane " + std::to_string(lane));
  }
  Stages& stages = lanes_[index];
  LaneStageTimes& times = times_[index];
  std::vector<StageItem>& items = current_[index];
  std::vector<StageItem>& next = next_[index];
  const int64_t query_start = now_();
  const bool timed = times.query_start_ns.size() < kMaxTimedQueriesPerLane;
  static const Frame kNoFrame;
  for (size_t s = 0; s < stages.size(); ++s) {
    next.clear();
    const bool host = kinds_[s] == StageKind::kHost;
    SetCrashNote(&crash_notes_[s]);
    // The CPU clock is a system call, where a busy machine may switch threads: read inside the
    // wall-clock reads, a wait there is the stage's, not lost between stages.
    const int64_t start = now_();
    const int64_t cpu_start = host ? cpu_now_() : 0;
    // The first stage reads the query's inputs in place (a frame is not copied); the others
    // read what the stage before made.
    const size_t count = s == 0 ? 1 : items.size();
    for (size_t i = 0; i < count; ++i) {
      const std::vector<Tensor>& in = s == 0 ? inputs : items[i].tensors;
      const Frame& frame = s == 0 ? kNoFrame : items[i].frame;
      if (Status status = stages[s]->Run(in, frame, next); !status.ok()) {
        SetCrashNote(nullptr);
        // The failed query's stages are not kept: every query in `times` ran them all.
        for (size_t done = 0; timed && done < s; ++done) {
          times.stage_ns[done].pop_back();
          times.stage_calls[done].pop_back();
          if (kinds_[done] == StageKind::kHost) times.stage_cpu_ns[done].pop_back();
        }
        return Status::Error("stage '" + stages[s]->name() + "': " + status.message());
      }
    }
    const int64_t cpu_end = host ? cpu_now_() : 0;
    const int64_t end = now_();
    SetCrashNote(nullptr);
    if (timed) {
      times.stage_ns[s].push_back(end - start);
      times.stage_calls[s].push_back(static_cast<int32_t>(count));
      if (host) times.stage_cpu_ns[s].push_back(cpu_end - cpu_start);
    }
    items.swap(next);
  }
  if (timed) {
    times.query_start_ns.push_back(query_start);
  } else {
    ++times.untimed_queries;
  }
  outputs.clear();
  if (stages.empty()) {
    outputs = inputs;
    return Status::Ok();
  }
  for (StageItem& item : items) {
    for (Tensor& t : item.tensors) outputs.push_back(std::move(t));
  }
  return Status::Ok();
}

}  // namespace edgebench
