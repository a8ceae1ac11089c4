#include "load/scenarios/camera.h"

#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

#include "core/clock.h"
#include "load/periodic_plan.h"
#include "load/phased_threads.h"
#include "load/scenarios/streamed.h"
#include "load/scheduled_wait.h"
#include "load/stream_merge.h"

namespace edgebench {
namespace {

constexpr double kMinFps = 0.01;
constexpr double kMaxFps = 1000;
constexpr int64_t kMaxQueueDepth = 1'000'000;

bool ParseWholeNumber(const std::string& text, int64_t low, int64_t high, int64_t& value) {
  if (text.empty() || text.size() > 7 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  value = std::stoll(text);
  return value >= low && value <= high;
}

Status ParseCamera(const std::string& parameter, bool has_parameter, ScenarioSpec& spec) {
  if (!has_parameter) return Status::Error("needs N cameras and their rate, e.g. camera:4@10fps");
  const size_t at = parameter.find('@');
  if (at == std::string::npos) return Status::Error("needs N@FPS, e.g. camera:4@10fps");
  int64_t streams = 0;
  if (!ParseWholeNumber(parameter.substr(0, at), 1, kMaxStreams, streams)) {
    return Status::Error("N must be a whole number of cameras from 1 to " + std::to_string(kMaxStreams));
  }
  const size_t slash = parameter.find('/', at);
  std::string rate = parameter.substr(at + 1, slash == std::string::npos ? std::string::npos : slash - at - 1);
  if (rate.size() > 3 && rate.compare(rate.size() - 3, 3, "fps") == 0) rate.resize(rate.size() - 3);
  double fps = 0;
  if (!ParseDecimal(rate, fps) || !(fps >= kMinFps) || fps > kMaxFps) {
    return Status::Error("FPS must be frames per second from 0.01 to 1000, e.g. 10fps or 29.97");
  }
  int64_t depth = 1;
  if (slash != std::string::npos) {
    const std::string policy = parameter.substr(slash + 1);
    if (policy == "drop") {
      depth = 1;
    } else if (policy == "queue") {
      depth = 0;
    } else if (policy.rfind("queue:", 0) == 0) {
      if (!ParseWholeNumber(policy.substr(6), 1, kMaxQueueDepth, depth)) {
        return Status::Error("queue:K needs K, the frames that may wait, from 1 to " + std::to_string(kMaxQueueDepth));
      }
    } else {
      return Status::Error("the policy for a frame still waiting is drop, queue or queue:K, not '" + policy + "'");
    }
  }
  spec.streams = streams;
  spec.fps = fps;
  spec.frame_queue = depth;
  return Status::Ok();
}

std::string CanonicalCamera(const ScenarioSpec& spec) {
  const std::string policy = spec.frame_queue == 1   ? ""
                             : spec.frame_queue == 0 ? "/queue"
                                                     : "/queue:" + std::to_string(spec.frame_queue);
  return "camera:" + std::to_string(spec.streams) + "@" + FormatRate(spec.fps) + "fps" + policy;
}

int CameraStreams(const ScenarioSpec& spec, const RunSettings&) { return static_cast<int>(spec.streams); }

class CameraScenario : public StreamedScenario {
 public:
  using StreamedScenario::StreamedScenario;
  ScenarioResult Run(ScenarioContext& context) override {
    return RunCameras(SystemOf(context), *context.input_pool,
                      PlanCameras(streams(), spec().fps, spec().frame_queue, settings()), context.observer);
  }
};

struct alignas(64) CameraStreamState {
  QuerySeries warmup;
  QuerySeries measured;
  CameraStreamResult counts;
  Status error;
  int64_t failed_query = -1;
};

}  // namespace

const ScenarioEntry kCameraScenario = {
    "camera", "camera:N@FPS[/drop|/queue|/queue:K]",
    "N cameras each delivering a frame every 1/FPS, done or not; frames dropped, late and fps per stream",
    SessionKind::kTensor, "sessions",
    {.judge_cv = false, .camera = true},
    ParseCamera, CanonicalCamera, CameraStreams, nullptr, MakeStreamed<CameraScenario>};

CameraPlan PlanCameras(int streams, double fps, int64_t queue_depth, const RunSettings& s) {
  CameraPlan plan;
  plan.streams = std::max(streams, 1);
  plan.period_ns = std::max<int64_t>(std::llround(1e9 / std::max(fps, kMinFps)), 1);
  plan.queue_depth = std::max<int64_t>(queue_depth, 0);
  plan.warmup_per_stream = WarmupPerStream(plan.streams, s);
  plan.max_duration_ns = s.max_duration_ms * 1'000'000;
  plan.frames = PeriodsPerStream(plan.streams, plan.period_ns, s);
  return plan;
}

CameraStreamPlan CameraStreamPlanOf(const CameraPlan& plan, int stream) {
  CameraStreamPlan p;
  p.period_ns = plan.period_ns;
  p.offset_ns = plan.period_ns * stream / plan.streams;
  p.frames = plan.frames;
  p.queue_depth = plan.queue_depth;
  p.max_duration_ns = plan.max_duration_ns;
  return p;
}

ScenarioResult RunCameras(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                          const CameraPlan& plan, RunObserver* observer) {
  ScenarioResult result;
  const int streams = plan.streams;
  if (input_pool.empty() || system.lanes() < 1 || (system.lanes() != 1 && system.lanes() != streams)) {
    result.error = Status::Error("internal: cameras need input samples and one session or one per stream");
    result.failed_stage = "inputs";
    result.stop_reason = "error";
    return result;
  }
  std::vector<std::unique_ptr<CameraStreamState>> states;
  for (int s = 0; s < streams; ++s) states.push_back(std::make_unique<CameraStreamState>());
  std::atomic<bool> stop{false};
  const size_t pool_size = input_pool.size();
  const CameraStreamClock clock{NowNs, [](int64_t t) { WaitUntil(t); }};

  auto stream_main = [&](int s, PhaseGate& gate) {
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    CameraStreamState& state = *states[static_cast<size_t>(s)];
    const int lane = system.lanes() == 1 ? 0 : s;
    std::vector<Tensor> outputs;
    int64_t query = 0;
    auto run = [&]() {
      if (stop.load(std::memory_order_relaxed)) return false;
      const auto& inputs = input_pool[static_cast<size_t>(query * streams + s) % pool_size];
      Status status = system.IssueQuery(lane, inputs, outputs);
      if (!status.ok()) {
        state.error = status;
        state.failed_query = query;
        stop = true;
        return false;
      }
      ++query;
      return true;
    };
    for (int64_t i = 0; i < plan.warmup_per_stream; ++i) {
      const int64_t start = NowNs();
      if (!run()) break;
      state.warmup.latency_ns.push_back(NowNs() - start);
      state.warmup.issue_ns.push_back(start - gate.warmup_start());
    }
    const int64_t phase_start = gate.WaitForMeasuredPhase();
    if (stop.load()) return;
    state.counts = RunCameraStream(CameraStreamPlanOf(plan, s), phase_start, clock, [&](int64_t) { return run(); });
    state.measured.latency_ns = std::move(state.counts.latency_ns);
    state.measured.issue_ns = std::move(state.counts.arrival_ns);
  };

  const int64_t expected_ms = plan.frames * plan.period_ns / 1'000'000;
  const int64_t phase_start = RunInPhases(streams, stream_main, observer, expected_ms, NowNs);
  result.measured_start_ns = phase_start;
  int64_t last_end = phase_start;
  bool hit_max_duration = false;
  std::vector<const QuerySeries*> measured;
  for (int s = 0; s < streams; ++s) {
    CameraStreamState& state = *states[static_cast<size_t>(s)];
    if (!state.error.ok() && result.error.ok()) {
      result.error = state.error;
      result.failed_stage = "run";
      result.failed_query = state.failed_query;
      result.failed_stream = s;
    }
    last_end = std::max(last_end, state.counts.last_end_ns);
    hit_max_duration = hit_max_duration || state.counts.hit_max_duration;
    result.frames_delivered.push_back(state.counts.delivered);
    result.frames_dropped.push_back(state.counts.dropped);
    result.not_issued += state.counts.unserved;
    for (size_t i = 0; i < state.warmup.latency_ns.size(); ++i) {
      result.warmup.latency_ns.push_back(state.warmup.latency_ns[i]);
      result.warmup.issue_ns.push_back(state.warmup.issue_ns[i]);
    }
    measured.push_back(&state.measured);
  }
  result.measured = MergeStreamsByIssue(measured);
  // The measured phase lasts as long as its cameras delivered frames, or until the last
  // completion if that came later: the sustained rate divides by this.
  int64_t delivering_ns = plan.frames * plan.period_ns;
  if (plan.max_duration_ns > 0) delivering_ns = std::min(delivering_ns, plan.max_duration_ns);
  result.measured_wall_ns = std::max(last_end - phase_start, delivering_ns);
  result.stop_reason = !result.error.ok()   ? "error"
                       : hit_max_duration ? "max_duration"
                                          : "min_queries_and_duration";
  return result;
}

}  // namespace edgebench
