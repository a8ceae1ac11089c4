// Backend "mediapipe": MediaPipe Tasks through the Tasks C API (libmediapipe.so) of the mediapipe
// PyPI wheel. A case benchmarks a Task, not a bare graph: task=face_detector|image_classifier|
// object_detector picks it (image_segmenter: not supported yet), and the measured latency includes
// MediaPipe's own pre- and post-processing (resize, normalization, anchor decoding, NMS).
//
// Targets: mediapipe:cpu (the TFLite XNNPACK delegate MediaPipe picks for CPU); mediapipe:gpu is
// listed, unavailable (see Info()). Options: task=..., image=WxH (the input image's size; default
// the model's input size), mode=image|live_stream (live_stream: DetectAsync with a result callback,
// latency from submission to callback), timeout_ms=N (live_stream: how long a run waits for its
// result). MediaPipe's C API has no thread option: MediaPipe picks its own threads.
//
// The session's signature (what `agree` pairs against, do not change lightly):
//   input  "image"               uint8   [1, H, W, 3]  RGB (MediaPipe's SRGB image format)
//   face_detector / object_detector, sorted by score descending, N = detections (free dim):
//   output "detection_boxes"     float32 [N, 4]  (left, top, right, bottom) in input pixels
//          "detection_scores"    float32 [N]     the first category's score
//          "detection_keypoints" float32 [N, K, 2] normalized (x, y); K = 6 for BlazeFace, 0 if none
//   image_classifier:
//   output "scores"              float32 [1, C]  the first head's scores by category index
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeMediaPipeBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeMediaPipeBackend();

}  // namespace edgebench
