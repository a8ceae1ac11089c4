// Non-maximum suppression over detections, by IoU, as MediaPipe's NonMaxSuppressionCalculator
// does it: take the best-scoring detection left, and with it every other left whose IoU with it
// exceeds the threshold. DEFAULT keeps the best one as it is; WEIGHTED (BlazeFace's choice)
// replaces its box and keypoints by the score-weighted mean of the group's, keeping its score.
#pragma once

#include <vector>

#include "postprocess/detection.h"

namespace edgebench {

struct NmsOptions {
  double min_suppression_threshold = 0.3;  // IoU above which a detection joins the group
  bool weighted = true;
  int max_detections = -1;  // negative: no limit
};

// The kept detections, by score descending.
std::vector<Detection> NonMaxSuppression(std::vector<Detection> detections, const NmsOptions& options);

}  // namespace edgebench
