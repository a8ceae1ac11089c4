#include "diagnose/coverage_check.h"

namespace edgebench {
namespace {

// The limit the table's source states for an op type (the first row naming it), or "".
std::string StatedLimit(const SupportTable& table, const std::string& op) {
  for (const SupportRow& row : table.rows) {
    if (row.op == op && !row.limit.empty()) return row.limit;
  }
  return "";
}

// Why nodes of a listed op type stayed on the CPU: the prediction counts every node of a
// listed op type, the runtime checks each node.
std::string WhyLeftOnCpu(const SupportTable& table, const std::string& op) {
  const std::string limit = StatedLimit(table, op);
  if (!limit.empty()) {
    return "the prediction counts every " + op + " node; the source states a limit it does not check per node (" +
           limit + "), and these nodes did not meet it";
  }
  return "the table states no limit for " + op +
         "; the runtime's own per-node check (data types, shapes, constant inputs) refused these nodes, which an "
         "op-type table cannot predict (" + table.describes + ")";
}

std::string WhyTaken(const SupportTable& table, const std::string& op) {
  return "the table does not list " + op + " (for this opset), yet the runtime ran it: fused into a node it runs, "
         "or a kernel the table's source does not register (" + table.describes + ")";
}

}  // namespace

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
    if (left > 0) {
      check.listed_but_left_on_cpu[op] = left;
      check.why[op] = WhyLeftOnCpu(table, op);
    }
  }
  for (const auto& [op, nodes] : unlisted) {
    const auto cpu = placement.cpu_op_types.find(op);
    const int64_t left = cpu == placement.cpu_op_types.end() ? 0 : cpu->second;
    if (nodes > left) {
      check.unlisted_but_taken[op] = nodes - left;
      check.why[op] = WhyTaken(table, op);
    }
  }
  return check;
}

}  // namespace edgebench
