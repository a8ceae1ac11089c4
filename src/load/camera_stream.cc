#include "load/camera_stream.h"

#include <algorithm>
#include <deque>

namespace edgebench {

CameraStreamResult RunCameraStream(const CameraStreamPlan& plan, int64_t phase_start, const CameraStreamClock& clock,
                                   const std::function<bool(int64_t frame)>& process) {
  CameraStreamResult result;
  result.last_end_ns = phase_start;
  const auto arrival = [&](int64_t frame) { return phase_start + plan.offset_ns + frame * plan.period_ns; };
  const int64_t deadline = plan.max_duration_ns > 0 ? phase_start + plan.max_duration_ns : INT64_MAX;
  std::deque<int64_t> waiting;  // frame numbers, oldest first
  int64_t next = 0;             // the next frame to arrive
  for (;;) {
    const int64_t now = clock.now();
    // Admit every frame that has arrived (none at or past the deadline), dropping the oldest
    // beyond the queue's depth.
    while (next < plan.frames && arrival(next) <= now && arrival(next) < deadline) {
      waiting.push_back(next++);
      ++result.delivered;
      if (plan.queue_depth > 0 && static_cast<int64_t>(waiting.size()) > plan.queue_depth) {
        waiting.pop_front();
        ++result.dropped;
      }
    }
    if (now >= deadline) {
      result.hit_max_duration = next < plan.frames || !waiting.empty();
      result.unserved = static_cast<int64_t>(waiting.size());
      break;
    }
    if (waiting.empty()) {
      if (next >= plan.frames) break;
      clock.wait_until(std::min(arrival(next), deadline));
      continue;
    }
    const int64_t frame = waiting.front();
    waiting.pop_front();
    if (!process(frame)) {
      result.failed = true;
      break;
    }
    const int64_t end = clock.now();
    const int64_t latency = end - arrival(frame);
    result.latency_ns.push_back(latency);
    result.arrival_ns.push_back(arrival(frame) - phase_start);
    if (latency > plan.period_ns) ++result.late;
    result.last_end_ns = end;
  }
  return result;
}

}  // namespace edgebench
