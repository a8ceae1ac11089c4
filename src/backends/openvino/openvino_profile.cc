#include "backends/openvino/openvino_profile.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace edgebench {

void OpenVinoProfileAccumulator::AddRun(const std::vector<OpenVinoNodeTime>& nodes) {
  ++runs_;
  for (const OpenVinoNodeTime& node : nodes) {
    // OpenVINO's CPU plugin reports a node that took under a microsecond as NOT_RUN, with 0 us:
    // every node is counted each run, and those that never executed in any run are dropped.
    const auto key = std::make_pair(node.node_name, node.node_type);
    auto it = index_.find(key);
    if (it == index_.end()) {
      it = index_.emplace(key, operators_.size()).first;
      operators_.push_back({node.node_name, node.node_type, device_, 0, 0});
      ever_executed_.push_back(false);
    }
    OperatorTime& op = operators_[it->second];
    ++op.calls;
    op.total_ns += node.real_time_us * 1000;
    if (node.executed) ever_executed_[it->second] = true;
    ns_by_kernel_[node.exec_type.empty() ? "unnamed" : node.exec_type] += node.real_time_us * 1000;
  }
}

OperatorProfile OpenVinoProfileAccumulator::Profile() const {
  OperatorProfile profile;
  profile.source = "OpenVINO's per-node profiling (ov::enable_profiling, get_profiling_info)";
  profile.runs = runs_;
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (ever_executed_[i]) profile.operators.push_back(operators_[i]);
  }
  if (runs_ == 0) {
    profile.notes.push_back("no measured run finished, so OpenVINO's profiling info was never read");
    return profile;
  }
  // Which kernels the time went to: OperatorTime has the layer type, not OpenVINO's kernel.
  std::vector<std::pair<std::string, int64_t>> kernels(ns_by_kernel_.begin(), ns_by_kernel_.end());
  std::sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  int64_t total_ns = 0;
  for (const auto& [kernel, ns] : kernels) total_ns += ns;
  std::erase_if(kernels, [](const auto& kernel) { return kernel.second == 0; });
  std::string text;
  for (const auto& [kernel, ns] : kernels) {
    char share[32];
    std::snprintf(share, sizeof(share), " %.1f%%", total_ns > 0 ? 100.0 * static_cast<double>(ns) / static_cast<double>(total_ns) : 0.0);
    text += (text.empty() ? "" : ", ") + kernel + share;
  }
  if (!text.empty()) profile.notes.push_back("time by OpenVINO kernel (exec_type): " + text);
  profile.notes.push_back(
      "OpenVINO reports each node's duration, not its start: the profile has no trace spans");
  return profile;
}

}  // namespace edgebench
