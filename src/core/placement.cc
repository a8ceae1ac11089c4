#include "core/placement.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace edgebench {

std::string OpTypeCountsText(const std::map<std::string, int>& op_types) {
  std::vector<std::pair<std::string, int>> sorted(op_types.begin(), op_types.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (const auto& [op, count] : sorted) {
    text += (text.empty() ? "" : ", ") + op + " x" + std::to_string(count);
  }
  return text;
}

std::optional<std::string> CpuFallbackText(const Placement& placement, const std::string& device) {
  if (!placement.known || device == "cpu") return std::nullopt;
  // The model's own nodes where the runtime told them, the executed graph's otherwise.
  const bool original = placement.model_nodes.has_value() &&
                        placement.original_nodes_by_device.count("cpu") > 0;
  const std::map<std::string, int>& by_device =
      original ? placement.original_nodes_by_device : placement.nodes_by_device;
  const auto cpu = by_device.find("cpu");
  if (cpu == by_device.end() || cpu->second == 0) return std::nullopt;
  int total = 0;
  if (original) {
    total = *placement.model_nodes;
  } else {
    for (const auto& [name, nodes] : by_device) total += nodes;
  }
  std::string text = std::to_string(cpu->second) + " of " + std::to_string(total) +
                     (original ? " nodes" : " executed nodes (after fusion)") +
                     " stayed on the CPU";
  std::map<std::string, int> op_types = placement.cpu_op_types;
  if (op_types.empty()) {
    const auto ops = placement.ops_by_device.find("cpu");
    if (ops != placement.ops_by_device.end()) op_types = ops->second;
  }
  if (!op_types.empty()) text += " (op types: " + OpTypeCountsText(op_types) + ")";
  return text;
}

}  // namespace edgebench
