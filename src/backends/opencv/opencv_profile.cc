#include "backends/opencv/opencv_profile.h"

#include <cmath>
#include <map>

#include "core/placement.h"

namespace edgebench {

bool OpenCvProfileAccumulator::AddRun(const std::vector<double>& layer_ticks) {
  if (layer_ticks.size() != layers_.size()) {
    ++mismatched_runs_;
    return false;
  }
  if (total_ticks_.empty()) {
    total_ticks_.assign(layers_.size(), 0.0);
    ever_ran_.assign(layers_.size(), false);
  }
  ++runs_;
  for (size_t i = 0; i < layer_ticks.size(); ++i) {
    total_ticks_[i] += layer_ticks[i];
    if (layer_ticks[i] > 0) ever_ran_[i] = true;
  }
  return true;
}

OperatorProfile OpenCvProfileAccumulator::Profile() const {
  OperatorProfile profile;
  profile.source = "OpenCV DNN's per-layer timings (cv::dnn::Net::getPerfProfile after each measured forward)";
  profile.runs = runs_;
  if (runs_ == 0) {
    profile.notes.push_back("no measured run finished, so OpenCV's per-layer timings were never read");
  }
  std::map<std::string, int> fused;
  for (size_t i = 0; i < total_ticks_.size(); ++i) {
    if (!ever_ran_[i]) {
      ++fused[layers_[i].type];
      continue;
    }
    OperatorTime op;
    op.node = layers_[i].name;
    op.op_type = layers_[i].type;
    op.device = layers_[i].device;
    op.calls = runs_;
    op.total_ns = static_cast<int64_t>(std::llround(total_ticks_[i] * ns_per_tick_));
    profile.operators.push_back(op);
  }
  if (!fused.empty()) {
    int count = 0;
    for (const auto& [type, n] : fused) count += n;
    profile.notes.push_back(std::to_string(count) + " of the net's " + std::to_string(layers_.size()) +
                            " layers took 0 ticks in every run (fused into another layer or skipped by "
                            "OpenCV): " + OpTypeCountsText(fused));
  }
  if (mismatched_runs_ > 0) {
    profile.notes.push_back(std::to_string(mismatched_runs_) +
                            " runs were left out: OpenCV reported timings for another number of layers "
                            "than the net had when the profile began");
  }
  profile.notes.push_back("OpenCV reports each layer's duration, not its start: the profile has no trace spans");
  return profile;
}

}  // namespace edgebench
