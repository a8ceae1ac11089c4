// camera:N@FPS[/drop|/queue|/queue:K]: N cameras, each delivering a frame every 1/FPS whether or
// not its last frame is done, each stream on its own session (or one shared). A frame waiting
// when newer ones arrive is dropped (drop, the default: the newest replaces it, a camera's single
// buffer), or waits its turn (queue; queue:K keeps the K newest). The streams' first frames are
// staggered evenly over one period (cameras are not genlocked). Latency runs from a frame's
// arrival to its completion; the record counts frames delivered, dropped and late (completed
// after the next frame arrived) and the sustained frame rate per stream (docs/scenarios.md).
// The measured phase is the frames that cover --min-queries (all streams together) and
// --min-duration, at most --max-duration and --max-queries; warmup: ceil(--warmup / N) queries
// per stream, back to back.
#pragma once

#include <vector>

#include "load/camera_stream.h"
#include "load/scenario_registry.h"
#include "load/system_under_test.h"

namespace edgebench {

extern const ScenarioEntry kCameraScenario;

struct CameraPlan {
  int streams = 1;
  int64_t period_ns = 0;
  int64_t frames = 0;  // per stream, in the measured phase
  int64_t queue_depth = 1;
  int64_t warmup_per_stream = 0;
  int64_t max_duration_ns = 0;
};

// The frames a run holds: enough for min_queries and min_duration, within max_duration and
// max_queries (at least one per stream).
CameraPlan PlanCameras(int streams, double fps, int64_t queue_depth, const RunSettings& settings);

// Stream s's plan: its first frame s/N of a period after the phase start.
CameraStreamPlan CameraStreamPlanOf(const CameraPlan& plan, int stream);

// Runs the plan on `system` (one lane shared, or one per stream) on the harness clock. The
// measured series is in arrival order, each frame with its stream; frames_delivered and
// frames_dropped hold each stream's counts, not_issued the frames still waiting when
// max_duration stopped the run.
ScenarioResult RunCameras(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                          const CameraPlan& plan, RunObserver* observer = nullptr);
// The same on one model's sessions.
inline ScenarioResult RunCameras(const std::vector<Session*>& sessions, const std::vector<std::vector<Tensor>>& input_pool,
                                 const CameraPlan& plan, RunObserver* observer = nullptr) {
  SessionSystem system(sessions);
  return RunCameras(system, input_pool, plan, observer);
}

}  // namespace edgebench
