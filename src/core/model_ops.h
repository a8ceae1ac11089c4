// A model's operators read straight from the file, without a runtime session: what static
// coverage (diagnose/coverage.h) checks against the accelerators' published support tables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

enum class ModelFormat { kOnnx, kTflite };

const char* ModelFormatName(ModelFormat format);

// One operator of the model's main graph, in graph order (ONNX: the file's node order, which the
// format requires to be topological; TFLite: subgraph 0's execution order).
struct ModelNode {
  std::string op_type;  // ONNX op_type ("MatMul"); TFLite builtin name ("CONV_2D") or custom code
  std::string domain;   // ONNX: "ai.onnx" for the default domain; TFLite: "" or "custom"
  std::string name;     // ONNX: the node's name ("" when it has none); TFLite: ""
  std::vector<std::string> outputs;  // ONNX: its output values' names ("" for an omitted one)
  // Bytes of the constant tensors (initializers, TFLite buffers) this node is the first to read;
  // a tensor shared by several nodes counts once, for the first.
  int64_t parameter_bytes = 0;
};

// A graph input as the file declares it (initializers excluded): its axes, each a fixed size or
// free (an ONNX dim_param or missing dim_value, a TFLite -1 in shape_signature).
struct ModelInput {
  std::string name;
  std::vector<std::optional<int64_t>> axes;  // nullopt: free
  bool shape_known = true;  // false: the file gives no shape (any rank)
};

struct ModelOps {
  ModelFormat format = ModelFormat::kOnnx;
  std::vector<ModelInput> inputs;         // the main graph's inputs, in order
  std::vector<ModelNode> nodes;
  std::map<std::string, int64_t> opsets;  // ONNX: domain ("ai.onnx" for "") -> opset version
  std::vector<std::string> graph_outputs;  // ONNX: the main graph's outputs, in order
  int64_t parameter_bytes = 0;            // all constant tensors, read by a node or not
  bool parameter_bytes_known = true;      // false where some tensor's size could not be told
  std::vector<std::string> notes;         // what the reader left out, for the report
};

// By the file's extension (.onnx, .tflite); anything else is an error naming the file.
Result<ModelOps> ReadModelOps(const std::string& path);
// The ONNX protobuf wire format, read directly (no protobuf dependency): graph nodes, opset
// imports, initializer sizes. Subgraphs inside attributes (If, Loop, Scan) are not descended into;
// a note says how many nodes carry them.
Result<ModelOps> ReadOnnxOps(const std::string& path);
Result<ModelOps> ParseOnnxOps(const std::string& bytes, const std::string& path);
// TFLite flatbuffer (verified before it is read): subgraph 0's operators and buffer sizes.
// Only where edgebench is built with TensorFlow Lite's headers; otherwise an error saying so.
Result<ModelOps> ReadTfliteOps(const std::string& path);

}  // namespace edgebench
