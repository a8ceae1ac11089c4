// The camera scenario's frame accounting (docs/metrics.md, "Camera"): per stream, the frames
// that arrived, ran, were dropped and were late, and the sustained frame rate; from the
// processed frames' latencies and streams, the counts the streams kept, and the frame period.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

struct CameraStreamSummary {
  int64_t delivered = 0;  // frames that arrived in the measured phase
  int64_t processed = 0;  // frames run to completion
  int64_t dropped = 0;    // pushed out of the queue by newer frames, never run
  int64_t late = 0;       // processed, completed after the next frame's arrival
  double fps = 0;         // processed frames / measured wall time
};

struct CameraSummary {
  double offered_fps = 0;  // per stream: 1e9 / period
  int64_t period_ns = 0;
  std::vector<CameraStreamSummary> streams;
  CameraStreamSummary total;  // sums; fps: all streams' frames / wall time
  double dropped_fraction = 0;  // dropped / delivered, all streams
  double late_fraction = 0;     // late / processed, all streams
  double slowest_stream_fps = 0;
};

// nullopt when the counts do not fit the samples (a stream index out of range, more processed
// than delivered); `why` then says which.
std::optional<CameraSummary> SummarizeCamera(const std::vector<int64_t>& latency_ns, const std::vector<int32_t>& stream,
                                             const std::vector<int64_t>& delivered,
                                             const std::vector<int64_t>& dropped, int64_t period_ns, int64_t wall_ns,
                                             std::string* why = nullptr);

}  // namespace edgebench
