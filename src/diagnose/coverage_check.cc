#include "diagnose/coverage_check.h"

namespace edgebench {

CoverageCheck CheckCoverage(const std::string& target, const std::string& device, const ModelOps& model,
                            const SupportTable& table, const Placement& placement) {
  CoverageCheck check;
  check.target = target;
  check.accelerator = table.accelerator;
  const Coverage predicted = ComputeCoverage(model, table);
  check.predicted_nodes = predicted.supported_nodes;
  check.total_nodes = predicted.total_nodes;
  // The model's op types, each split by the table into listed and unlisted nodes.
  std::map<std::string, int64_t> listed, unlisted;
  for (const ModelNode& node : model.nodes) {
    (Supports(table, node, model) ? listed : unlisted)[node.op_type] += 1;
  }
  const auto ran = placement.original_nodes_by_device.find(device);
  if (!placement.known || ran == placement.original_nodes_by_device.end() ||
      (placement.original_nodes_by_device.size() > 1 && placement.cpu_op_types.empty())) {
    check.unknown_reason = "the runtime did not say which of the model's nodes " + device + " ran";
    return check;
  }
  check.ran_nodes = ran->second;
  // Nodes the device left on the CPU, by op type (the runtime's own count); the rest ran on it.
  for (const auto& [op, nodes] : listed) {
    const auto cpu = placement.cpu_op_types.find(op);
    const int64_t left = cpu == placement.cpu_op_types.end() ? 0 : std::min<int64_t>(cpu->second, nodes);
    if (left > 0) check.listed_but_left_on_cpu[op] = left;
  }
  for (const auto& [op, nodes] : unlisted) {
    const auto cpu = placement.cpu_op_types.find(op);
    const int64_t left = cpu == placement.cpu_op_types.end() ? 0 : cpu->second;
    if (nodes > left) check.unlisted_but_taken[op] = nodes - left;
  }
  return check;
}

}  // namespace edgebench
