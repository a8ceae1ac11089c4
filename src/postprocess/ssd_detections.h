// The SSD postprocess of a raw detector (BlazeFace): regressors [1,B,C] and classificators
// [1,B,1] decoded against the anchors, filtered by score and merged by non-maximum suppression
// into the detection outputs a detector session gives (postprocess/detection.h), so a raw model
// on one runtime can be compared with a MediaPipe Task's detections on another.
//
// Declared in a model manifest as
//   "postprocess": {"kind": "ssd_detections", "preset": "blazeface_short_range",
//                   "min_score_thresh": 0.5, ...}
// where any option below may override the preset's, by its MediaPipe option name.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "core/tensor.h"
#include "postprocess/detection.h"
#include "postprocess/non_max_suppression.h"
#include "postprocess/ssd_anchors.h"

namespace edgebench {

// As MediaPipe's TensorsToDetectionsCalculator reads a box's C values.
struct SsdDecodeOptions {
  int num_coords = 16;
  int box_coord_offset = 0;
  int keypoint_coord_offset = 4;
  int num_keypoints = 6;
  int num_values_per_keypoint = 2;
  double x_scale = 128, y_scale = 128, w_scale = 128, h_scale = 128;
  bool reverse_output_order = true;  // boxes as (x, y, w, h) rather than (y, x, h, w)
  bool apply_exponential_on_box_size = false;
  bool sigmoid_score = true;
  double score_clipping_thresh = 100;  // raw scores clipped to +-this before the sigmoid
  double min_score_thresh = 0.5;       // detections scoring below are dropped
};

struct SsdDetectionsOptions {
  std::string preset;  // the preset it started from, for messages
  std::string regressors = "regressors";          // output names after the output mapping
  std::string classificators = "classificators";
  SsdAnchorOptions anchors;
  SsdDecodeOptions decode;
  NmsOptions nms;
};

// "blazeface_short_range" (128x128, 896 anchors) and "blazeface_full_range" (192x192, 2304
// anchors), with MediaPipe's face detection graph settings.
Result<SsdDetectionsOptions> SsdDetectionsPreset(const std::string& name);

// {"kind": "ssd_detections", "preset": NAME, OPTION: VALUE, ...}; an unknown key is an error
// listing the known ones.
Result<SsdDetectionsOptions> ParseSsdDetectionsOptions(const nlohmann::json& json);

// Decodes every box scoring at least min_score_thresh (no suppression yet), in anchor order.
// `regressors` holds anchors.size() x num_coords values, `scores` one raw score per anchor.
std::vector<Detection> DecodeSsdBoxes(const std::vector<double>& regressors, const std::vector<double>& scores,
                                      const std::vector<Anchor>& anchors, const SsdDecodeOptions& options);

// The detections of a raw model's outputs (found by the options' names), decoded against
// `anchors` (GenerateSsdAnchors(options.anchors)) and suppressed, normalized to the input. The
// error names what is missing or what shape was expected.
Result<std::vector<Detection>> SsdDetectionsOf(const std::vector<Tensor>& outputs, const SsdDetectionsOptions& options,
                                               const std::vector<Anchor>& anchors);

// The three detection outputs from a raw model's outputs (found by the options' names; other
// outputs are ignored), boxes in pixels of the anchors' input size. The error names what is
// missing or what shape was expected.
Result<std::vector<Tensor>> SsdDetectionsFromOutputs(const std::vector<Tensor>& outputs,
                                                     const SsdDetectionsOptions& options);

// Detections (normalized) as the three outputs, boxes scaled to a width x height image.
std::vector<Tensor> DetectionTensors(const std::vector<Detection>& detections, int width, int height,
                                     int num_keypoints);

}  // namespace edgebench
