// Agreement of two detection sets (postprocess/detection.h outputs: boxes in pixels, scores,
// optional keypoints): detections matched greedily by IoU, then corner, score and keypoint
// errors over the matched pairs. The sets may differ in size; what is left unmatched is counted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

struct DetectionTolerances {
  double min_iou = 0.5;              // a pair matches at this IoU or more
  double max_corner_error_px = 2.0;  // distance between corresponding box corners
  double max_score_diff = 0.02;
  double max_keypoint_error = 0.01;  // normalized to the image (0.01 = 1.28 px at 128 px)
  int64_t max_unmatched = 0;         // on each side
};

struct DetectionAgreement {
  int64_t reference_count = 0;
  int64_t other_count = 0;
  int64_t matched = 0;
  int64_t unmatched_reference = 0;
  int64_t unmatched_other = 0;
  double min_matched_iou = 0;        // over matched pairs; 0 with none
  double max_corner_error_px = 0;    // Euclidean, top-left and bottom-right corners
  double mean_corner_error_px = 0;
  double max_score_diff = 0;
  std::optional<double> max_keypoint_error;  // when both sides give keypoints
  std::vector<std::string> violations;
};

// Both detection_boxes and detection_scores are among the outputs.
bool HasDetections(const std::vector<Tensor>& outputs);

// Splits outputs into the detection outputs and the rest.
void SplitDetectionOutputs(const std::vector<Tensor>& outputs, std::vector<Tensor>& detections,
                           std::vector<Tensor>& others);

// Matches the detections (greedily, the highest-IoU pair first, each detection once) and measures
// the matched pairs. Errors: missing outputs, shapes that are not [N,4], [N], [N,K,2].
Result<DetectionAgreement> CompareDetections(const std::vector<Tensor>& reference,
                                             const std::vector<Tensor>& other, double min_iou = 0.5);

// Fills `violations` from the tolerances.
void CheckDetectionTolerances(DetectionAgreement& agreement, const DetectionTolerances& tolerances);

}  // namespace edgebench
