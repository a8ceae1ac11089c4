// SSD anchors as MediaPipe's SsdAnchorsCalculator lays them out: for each group of consecutive
// layers with the same stride, a feature map of ceil(input / stride) cells, each with the group's
// anchors (every aspect ratio of every layer, plus one interpolated-scale anchor per layer);
// row-major over the map, anchors innermost. The model's boxes are predicted in this order.
#pragma once

#include <vector>

#include "core/status.h"

namespace edgebench {

struct SsdAnchorOptions {
  int input_width = 128;
  int input_height = 128;
  int num_layers = 4;
  std::vector<int> strides = {8, 16, 16, 16};
  double min_scale = 0.1484375;
  double max_scale = 0.75;
  double anchor_offset_x = 0.5;
  double anchor_offset_y = 0.5;
  std::vector<double> aspect_ratios = {1.0};
  double interpolated_scale_aspect_ratio = 1.0;  // 0: no interpolated anchor
  bool reduce_boxes_in_lowest_layer = false;
  bool fixed_anchor_size = true;  // every anchor 1 x 1 (the regressors carry the size)
};

struct Anchor {
  double x_center = 0, y_center = 0, width = 1, height = 1;  // normalized to the input
};

// The anchors, or an error for options that give none (no layers, a stride count that is not
// num_layers, a non-positive stride or input size).
Result<std::vector<Anchor>> GenerateSsdAnchors(const SsdAnchorOptions& options);

}  // namespace edgebench
