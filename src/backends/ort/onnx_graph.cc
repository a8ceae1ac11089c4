#include "backends/ort/onnx_graph.h"

#include <unordered_set>

#include "core/model_ops.h"
#include "core/protobuf_wire.h"

namespace edgebench {
namespace {

// Counts the op types of the nodes the shared ONNX reader found (core/model_ops.h).
Result<std::map<std::string, int>> CountOpTypes(Result<ModelOps> ops) {
  if (!ops.ok()) return Status::Error(ops.error());
  std::map<std::string, int> counts;
  for (const ModelNode& node : ops.value().nodes) ++counts[node.op_type];
  return counts;
}

}  // namespace

Result<ExposedOnnxModel> ExposeOnnxNodeOutputs(const std::string& model_bytes, const std::string& path) {
  auto ops = ParseOnnxOps(model_bytes, path);
  if (!ops.ok()) return ops.status();
  ExposedOnnxModel exposed;
  exposed.graph_outputs = ops.value().graph_outputs.size();
  std::unordered_set<std::string> outputs(ops.value().graph_outputs.begin(), ops.value().graph_outputs.end());
  std::string graph;
  for (const ModelNode& node : ops.value().nodes) {
    for (const std::string& name : node.outputs) {
      if (name.empty()) continue;  // an optional output the node does not produce
      exposed.values.push_back({name, node.name, node.op_type});
      if (!outputs.insert(name).second) continue;  // already a graph output
      exposed.added.push_back(name);
      graph += LengthDelimited(12, LengthDelimited(1, name));  // GraphProto.output: ValueInfoProto.name
    }
  }
  exposed.bytes = model_bytes;
  if (!graph.empty()) exposed.bytes += LengthDelimited(7, graph);  // ModelProto.graph, merged
  return exposed;
}

Result<std::map<std::string, int>> ReadOnnxOpTypes(const std::string& path) { return CountOpTypes(ReadOnnxOps(path)); }

Result<std::map<std::string, int>> ParseOnnxOpTypes(const std::string& model_bytes) {
  return CountOpTypes(ParseOnnxOps(model_bytes, "the model"));
}

}  // namespace edgebench
