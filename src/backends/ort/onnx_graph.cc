#include "backends/ort/onnx_graph.h"

#include "diagnose/model_ops.h"

namespace edgebench {
namespace {

// Counts the op types of the nodes the shared ONNX reader found (diagnose/model_ops.h).
Result<std::map<std::string, int>> CountOpTypes(Result<ModelOps> ops) {
  if (!ops.ok()) return Status::Error(ops.error());
  std::map<std::string, int> counts;
  for (const ModelNode& node : ops.value().nodes) ++counts[node.op_type];
  return counts;
}

}  // namespace

Result<std::map<std::string, int>> ReadOnnxOpTypes(const std::string& path) { return CountOpTypes(ReadOnnxOps(path)); }

Result<std::map<std::string, int>> ParseOnnxOpTypes(const std::string& model_bytes) {
  return CountOpTypes(ParseOnnxOps(model_bytes, "the model"));
}

}  // namespace edgebench
