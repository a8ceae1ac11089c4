// Where a model's nodes ran, as the runtime reports it: plain data, shared by backends (which
// fill it) and records (which keep it).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// Where each node of the model ran, as the runtime reports it.
//
// Two views: nodes_by_device counts the graph the runtime executes, after it fused nodes and
// handed subgraphs to providers or delegates (a fused subgraph counts as one node there); the
// model_nodes / original_nodes_by_device view counts the model's own nodes, before any of that.
// The second is filled only where the runtime tells; absent fields mean "unknown", never a guess.
struct Placement {
  std::map<std::string, int> nodes_by_device;  // device/provider name -> executed node count
  std::vector<std::string> devices_used;       // devices that ran at least one node
  // device -> op type -> node count, where the runtime tells op types (TFLite does).
  std::map<std::string, std::map<std::string, int>> ops_by_device;
  // Subgraphs handed to a delegate, when the runtime tells (TFLite's interpreter does; LiteRT's
  // C API does not): absent rather than guessed.
  std::optional<int> delegate_partitions;
  bool known = false;           // false when the runtime cannot tell

  // The model's own node count, before fusion or partitioning.
  std::optional<int> model_nodes;
  // device -> the model's own nodes that device ran (a fused node counts the nodes it absorbed);
  // a device is absent where the runtime does not tell.
  std::map<std::string, int> original_nodes_by_device;
  // device -> partitions (islands: fused or delegated subgraphs, or runs of nodes on that device).
  std::map<std::string, int> partitions_by_device;
  // Op type -> number of the model's own nodes left on the CPU; empty when none were or when
  // unknown (then original_nodes_by_device has no "cpu" either).
  std::map<std::string, int> cpu_op_types;
};

// "259 of 321 nodes stayed on the CPU (op types: Add x60, LayerNormalization x13)": the CPU's
// share when `device` (the requested one, not "cpu") left nodes there; nullopt when it left none
// or placement is unknown. Counts the model's own nodes where known, the executed graph otherwise.
std::optional<std::string> CpuFallbackText(const Placement& placement, const std::string& device);

// "Add x60, LayerNormalization x13": op types by count, most first, ties by name.
// Where the nodes ran, the requested `device` first: "dnnl 320/358 in 38 parts+cpu 38/358"
// where the runtime told the model's own node counts (a fused node counts the nodes it
// absorbed); otherwise the executed graph's, "cpu:37+dnnl:38", where a fused node counts one;
// "?" where the runtime cannot tell.
std::string PlacementText(const Placement& placement, const std::string& device);

std::string OpTypeCountsText(const std::map<std::string, int>& op_types);

}  // namespace edgebench
