// A detected object as the postprocessing steps pass it along: a box and keypoints in
// coordinates normalized to the model's input (0..1 across it), and a score.
#pragma once

#include <vector>

namespace edgebench {

// The outputs a detector's session gives (the mediapipe backend's face_detector, and the SSD
// postprocess of a raw model), sorted by score descending: boxes [N,4] (left, top, right,
// bottom) in pixels of the input image, scores [N], keypoints [N,K,2] normalized (x, y).
inline constexpr const char* kDetectionBoxes = "detection_boxes";
inline constexpr const char* kDetectionScores = "detection_scores";
inline constexpr const char* kDetectionKeypoints = "detection_keypoints";

struct Detection {
  double left = 0, top = 0, right = 0, bottom = 0;
  double score = 0;
  std::vector<double> keypoints;  // x0, y0, x1, y1, ...
};

// Intersection over union of two boxes; 0 when either is empty or they do not overlap.
double BoxIou(const Detection& a, const Detection& b);

}  // namespace edgebench
