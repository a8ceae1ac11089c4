// The op types of an ONNX model's own graph (through the ONNX reader of core/model_ops.h,
// the protobuf encoding read without a protobuf library): ONNX Runtime does not say how many
// nodes a model had before it fused them, so placement counts them here.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

// Op type -> number of nodes in the main graph of the .onnx file at `path` (not counting the
// nodes inside control-flow subgraphs). Error for a file that is not an ONNX ModelProto (an
// .ort file, a truncated one).
Result<std::map<std::string, int>> ReadOnnxOpTypes(const std::string& path);

// The same from the bytes of a serialized ModelProto.
Result<std::map<std::string, int>> ParseOnnxOpTypes(const std::string& model_bytes);

// A node output of the main graph, with the node that makes it.
struct OnnxValue {
  std::string name;
  std::string node;
  std::string op_type;
};

// A model whose every node output is also a graph output (for `edgebench drift`), without the
// onnx library: the bytes of `model_bytes` followed by a second ModelProto.graph field (7) that
// holds only GraphProto.output entries (12), ValueInfoProto{name} with no type. Protobuf merges a
// repeated embedded message field, so the reader sees one graph whose outputs are the original
// ones followed by these; ONNX Runtime infers the missing types. `values` gets every node output
// in graph order (the original graph outputs among them), `added` the names appended.
struct ExposedOnnxModel {
  std::string bytes;
  std::vector<OnnxValue> values;
  std::vector<std::string> added;
  size_t graph_outputs = 0;  // the original graph's output count
};
Result<ExposedOnnxModel> ExposeOnnxNodeOutputs(const std::string& model_bytes, const std::string& path);

}  // namespace edgebench
