// OpenCV DNN's per-layer times (Net::getPerfProfile) summed into an OperatorProfile.
//
// getPerfProfile() describes the net's last forward only, so the session hands each measured
// run's layer ticks to an OpenCvProfileAccumulator right after it. OpenCV gives each layer's
// duration, not its start, so the profile has operator times and no trace spans. A layer OpenCV
// fused into another (an activation into its convolution) or skipped reports 0 ticks: such
// layers are counted as fused, not as operators. Kept apart from OpenCV's types so the summing is
// testable without it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/operator_profile.h"

namespace edgebench {

// One layer of the net, by id order (getLayerNames()), with the device edgebench names for it.
struct OpenCvLayerInfo {
  std::string name;    // "onnx_node!node_Conv_207"
  std::string type;    // "Convolution", "ReLU6"...
  std::string device;  // "cpu", "opencl", "vulkan"
};

class OpenCvProfileAccumulator {
 public:
  OpenCvProfileAccumulator() = default;
  OpenCvProfileAccumulator(std::vector<OpenCvLayerInfo> layers, double ticks_per_second)
      : layers_(std::move(layers)), ns_per_tick_(ticks_per_second > 0 ? 1e9 / ticks_per_second : 0) {}

  // One forward's ticks, one per layer in the order of the layers given at construction. False
  // (the run is left out, and a note says so) when the count differs.
  bool AddRun(const std::vector<double>& layer_ticks);

  // The runs so far: one OperatorTime per layer that took time in some run (called once per
  // run), and notes on the fused layers and on what the profile does not cover.
  OperatorProfile Profile() const;

 private:
  std::vector<OpenCvLayerInfo> layers_;
  double ns_per_tick_ = 0;
  int64_t runs_ = 0;
  int64_t mismatched_runs_ = 0;
  std::vector<double> total_ticks_;  // per layer
  std::vector<bool> ever_ran_;       // per layer: more than 0 ticks in some run
};

}  // namespace edgebench
