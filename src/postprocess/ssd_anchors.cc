#include "postprocess/ssd_anchors.h"

#include <cmath>
#include <string>

namespace edgebench {
namespace {

// Scales grow linearly from min to max over the layers; one layer takes their midpoint.
double LayerScale(const SsdAnchorOptions& o, int layer) {
  const int count = static_cast<int>(o.strides.size());
  if (count == 1) return (o.min_scale + o.max_scale) / 2;
  return o.min_scale + (o.max_scale - o.min_scale) * layer / (count - 1);
}

}  // namespace

Result<std::vector<Anchor>> GenerateSsdAnchors(const SsdAnchorOptions& o) {
  if (o.num_layers <= 0 || static_cast<int>(o.strides.size()) != o.num_layers) {
    return Status::Error("SSD anchors: num_layers is " + std::to_string(o.num_layers) + " but " +
                         std::to_string(o.strides.size()) + " strides are given; give one stride per layer");
  }
  if (o.input_width <= 0 || o.input_height <= 0) return Status::Error("SSD anchors: the input size must be positive");
  for (int s : o.strides) {
    if (s <= 0) return Status::Error("SSD anchors: strides must be positive");
  }
  // Bounded before anything is built: a 20000x20000 input with stride 1 stands for billions.
  constexpr int kMaxInputSide = 16384;
  constexpr int64_t kMaxAnchors = 1'000'000;
  if (o.input_width > kMaxInputSide || o.input_height > kMaxInputSide) {
    return Status::Error("SSD anchors: input size " + std::to_string(o.input_width) + "x" +
                         std::to_string(o.input_height) + ": a side is at most " + std::to_string(kMaxInputSide));
  }
  for (double ratio : o.aspect_ratios) {
    if (!(ratio > 0) || !std::isfinite(ratio)) return Status::Error("SSD anchors: aspect ratios must be above 0");
  }
  int64_t count = 0;
  for (int l = 0; l < o.num_layers; ++l) {
    const int64_t stride = o.strides[static_cast<size_t>(l)];
    const int64_t cells = ((o.input_height + stride - 1) / stride) * ((o.input_width + stride - 1) / stride);
    const int64_t per_cell = l == 0 && o.reduce_boxes_in_lowest_layer
                                 ? 3
                                 : static_cast<int64_t>(o.aspect_ratios.size()) +
                                       (o.interpolated_scale_aspect_ratio > 0 ? 1 : 0);
    count += cells * per_cell;
    if (count > kMaxAnchors) {
      return Status::Error("SSD anchors: the input size and strides give more than " + std::to_string(kMaxAnchors) +
                           " anchors (BlazeFace's have 896): check input_size_width, input_size_height and strides");
    }
  }
  std::vector<Anchor> anchors;
  int layer = 0;
  while (layer < o.num_layers) {
    // Layers sharing a stride share one feature map: their anchors go into each cell together.
    std::vector<double> widths, heights;
    int last = layer;
    for (; last < o.num_layers && o.strides[static_cast<size_t>(last)] == o.strides[static_cast<size_t>(layer)]; ++last) {
      const double scale = LayerScale(o, last);
      std::vector<std::pair<double, double>> ratio_scales;  // (aspect ratio, scale)
      if (last == 0 && o.reduce_boxes_in_lowest_layer) {
        ratio_scales = {{1.0, 0.1}, {2.0, scale}, {0.5, scale}};
      } else {
        for (double ratio : o.aspect_ratios) ratio_scales.emplace_back(ratio, scale);
        if (o.interpolated_scale_aspect_ratio > 0) {
          const double next = last == o.num_layers - 1 ? 1.0 : LayerScale(o, last + 1);
          ratio_scales.emplace_back(o.interpolated_scale_aspect_ratio, std::sqrt(scale * next));
        }
      }
      for (const auto& [ratio, s] : ratio_scales) {
        widths.push_back(s * std::sqrt(ratio));
        heights.push_back(s / std::sqrt(ratio));
      }
    }
    const int stride = o.strides[static_cast<size_t>(layer)];
    const int map_height = (o.input_height + stride - 1) / stride;
    const int map_width = (o.input_width + stride - 1) / stride;
    for (int y = 0; y < map_height; ++y) {
      for (int x = 0; x < map_width; ++x) {
        for (size_t k = 0; k < widths.size(); ++k) {
          Anchor a;
          a.x_center = (x + o.anchor_offset_x) / map_width;
          a.y_center = (y + o.anchor_offset_y) / map_height;
          if (!o.fixed_anchor_size) {
            a.width = widths[k];
            a.height = heights[k];
          }
          anchors.push_back(a);
        }
      }
    }
    layer = last;
  }
  return anchors;
}

}  // namespace edgebench
