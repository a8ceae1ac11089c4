// One camera stream: frames arrive at a fixed rate whether or not the last one is done, and a
// frame still waiting when newer ones arrive is kept or dropped by the stream's queue depth. The
// loop is a function of an injected clock (now, wait) and a query (process), so that its counts
// are exact in tests; load/scenarios/camera.h runs one per stream on the harness clock.
//
// Frame k of the stream arrives at phase_start + offset + k x period. When the stream is free it
// admits every frame that has arrived; a queue longer than `queue_depth` drops its oldest frames
// (depth 1, "drop": the newest frame replaces the one waiting, as a camera's single buffer does;
// depth 0: every frame waits its turn). It runs the oldest frame waiting, or waits for the next
// arrival. A frame's latency runs from its arrival to its completion; it is late when it
// completes after the next frame arrives (latency over one period).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace edgebench {

struct CameraStreamPlan {
  int64_t period_ns = 0;    // 1 / fps
  int64_t offset_ns = 0;    // this stream's first arrival after the phase start
  int64_t frames = 0;       // frames it delivers in the measured phase
  int64_t queue_depth = 1;  // frames that may wait; 0: unbounded
  int64_t max_duration_ns = 0;  // no frame starts at or past phase_start + this; 0: no limit
};

struct CameraStreamResult {
  std::vector<int64_t> latency_ns;  // arrival to completion, per processed frame, in order
  std::vector<int64_t> arrival_ns;  // the processed frame's arrival, ns after the phase start
  int64_t delivered = 0;  // frames that arrived before the stream stopped
  int64_t dropped = 0;    // arrived frames pushed out of the queue by newer ones
  int64_t late = 0;       // processed frames that completed after the next frame's arrival
  int64_t unserved = 0;   // arrived frames still waiting when max_duration stopped the stream
  bool hit_max_duration = false;
  bool failed = false;    // process returned false: the stream stopped there
  int64_t last_end_ns = 0;  // clock at the last completion (phase_start when none)
};

struct CameraStreamClock {
  std::function<int64_t()> now;
  // Returns once the clock has reached the instant (sleep, then spin, on the harness clock).
  std::function<void(int64_t)> wait_until;
};

// Runs the stream from `phase_start`; process(frame) runs frame `frame` (0-based) and returns
// false when the query failed.
CameraStreamResult RunCameraStream(const CameraStreamPlan& plan, int64_t phase_start, const CameraStreamClock& clock,
                                   const std::function<bool(int64_t frame)>& process);

}  // namespace edgebench
