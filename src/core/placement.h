// Where a model's nodes ran, as the runtime reports it: plain data, shared by backends (which
// fill it) and records (which keep it).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// Where each node of the model ran, as the runtime reports it.
struct Placement {
  std::map<std::string, int> nodes_by_device;  // device/provider name -> node count
  std::vector<std::string> devices_used;       // devices that ran at least one node
  // device -> op type -> node count, where the runtime tells op types (TFLite does).
  std::map<std::string, std::map<std::string, int>> ops_by_device;
  // Subgraphs handed to a delegate, when the runtime tells (TFLite's interpreter does; LiteRT's
  // C API does not): absent rather than guessed.
  std::optional<int> delegate_partitions;
  bool known = false;           // false when the runtime cannot tell
};

}  // namespace edgebench
