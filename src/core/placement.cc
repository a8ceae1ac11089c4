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

std::string PlacementText(const Placement& p, const std::string& device) {
  if (!p.known) return "?";
  std::string ran;
  if (p.model_nodes && !p.original_nodes_by_device.empty()) {
    const auto add = [&](const std::string& name, int nodes) {
      ran += (ran.empty() ? "" : "+") + name + " " + std::to_string(nodes) + "/" + std::to_string(*p.model_nodes);
      const auto parts = p.partitions_by_device.find(name);
      // The CPU's islands are what is left between the others': only the accelerators' count.
      if (name != "cpu" && parts != p.partitions_by_device.end()) {
        ran += " in " + std::to_string(parts->second) + (parts->second == 1 ? " part" : " parts");
      }
    };
    // The requested device first.
    const auto requested = p.original_nodes_by_device.find(device);
    if (requested != p.original_nodes_by_device.end()) add(device, requested->second);
    for (const auto& [name, nodes] : p.original_nodes_by_device) {
      if (name != device) add(name, nodes);
    }
    return ran;
  }
  for (const auto& [name, nodes] : p.nodes_by_device) {
    ran += (ran.empty() ? "" : "+") + name + ":" + std::to_string(nodes);
  }
  return ran.empty() ? "?" : ran;
}

}  // namespace edgebench
