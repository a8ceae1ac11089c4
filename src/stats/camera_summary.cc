#include "stats/camera_summary.h"

#include <algorithm>

namespace edgebench {

std::optional<CameraSummary> SummarizeCamera(const std::vector<int64_t>& latency_ns, const std::vector<int32_t>& stream,
                                             const std::vector<int64_t>& delivered,
                                             const std::vector<int64_t>& dropped, int64_t period_ns, int64_t wall_ns,
                                             std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<CameraSummary> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (delivered.size() != dropped.size() || delivered.empty()) {
    return fail("frames_delivered and frames_dropped need one count per stream");
  }
  if (!stream.empty() && stream.size() != latency_ns.size()) return fail("a stream for every processed frame");
  CameraSummary c;
  c.period_ns = period_ns;
  c.offered_fps = period_ns > 0 ? 1e9 / static_cast<double>(period_ns) : 0;
  c.streams.resize(delivered.size());
  for (size_t i = 0; i < latency_ns.size(); ++i) {
    const int32_t s = stream.empty() ? 0 : stream[i];
    if (s < 0 || static_cast<size_t>(s) >= c.streams.size()) {
      return fail("frame " + std::to_string(i) + " is of stream " + std::to_string(s) + ", past the " +
                  std::to_string(c.streams.size()) + " streams counted");
    }
    CameraStreamSummary& t = c.streams[static_cast<size_t>(s)];
    ++t.processed;
    if (latency_ns[i] > period_ns) ++t.late;
  }
  const double seconds = static_cast<double>(wall_ns) / 1e9;
  for (size_t s = 0; s < c.streams.size(); ++s) {
    CameraStreamSummary& t = c.streams[s];
    t.delivered = delivered[s];
    t.dropped = dropped[s];
    if (t.delivered < 0 || t.dropped < 0 || t.processed + t.dropped > t.delivered) {
      return fail("stream " + std::to_string(s) + ": " + std::to_string(t.processed) + " processed and " +
                  std::to_string(t.dropped) + " dropped of " + std::to_string(t.delivered) + " delivered");
    }
    t.fps = seconds > 0 ? static_cast<double>(t.processed) / seconds : 0;
    c.total.delivered += t.delivered;
    c.total.processed += t.processed;
    c.total.dropped += t.dropped;
    c.total.late += t.late;
    c.slowest_stream_fps = s == 0 ? t.fps : std::min(c.slowest_stream_fps, t.fps);
  }
  c.total.fps = seconds > 0 ? static_cast<double>(c.total.processed) / seconds : 0;
  if (c.total.delivered > 0) c.dropped_fraction = static_cast<double>(c.total.dropped) / static_cast<double>(c.total.delivered);
  if (c.total.processed > 0) c.late_fraction = static_cast<double>(c.total.late) / static_cast<double>(c.total.processed);
  return c;
}

}  // namespace edgebench
