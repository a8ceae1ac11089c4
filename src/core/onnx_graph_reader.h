// An ONNX model's main graph in full, read from the protobuf wire format without a protobuf
// library (core/protobuf_wire.h): nodes with their inputs, outputs and attributes, initializers
// with their dims and (small integer and float ones) their values, and the declared inputs and
// outputs with their shapes. What the work counter (core/onnx_work.h) infers shapes from.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/status.h"

namespace edgebench {

// ONNX TensorProto.DataType's bytes per element; 0 where the size is not fixed (string) or the
// type is unknown.
int64_t OnnxElementBytes(int64_t data_type);

struct OnnxDim {
  std::optional<int64_t> value;  // nullopt: free
  std::string param;             // the symbol of a free axis ("batch"), when it has one
};

struct OnnxValueInfo {
  std::string name;
  int64_t elem_type = 0;   // TensorProto.DataType; 0: not declared
  bool shape_known = false;
  std::vector<OnnxDim> dims;
};

// A TensorProto: an initializer or a Constant's value. Values are kept for integer tensors of at
// most kOnnxKeptValues elements (the shapes, axes and indices shape inference needs) and for float
// tensors of as many (Resize's scales); data kept outside the file (external data) is not read.
inline constexpr int64_t kOnnxKeptValues = 4096;
struct OnnxTensor {
  std::string name;
  int64_t data_type = 0;
  std::vector<int64_t> dims;
  int64_t elements = 1;
  int64_t bytes = 0;  // elements x element size; 0 with size_known false for strings
  bool size_known = true;
  std::optional<std::vector<int64_t>> ints;    // int8..int64, uint8..uint64, bool
  std::optional<std::vector<double>> floats;   // float, double
};

struct OnnxAttribute {
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::optional<OnnxTensor> t;
  bool has_graph = false;  // a subgraph (If, Loop, Scan): not descended into
};

struct OnnxGraphNode {
  std::string op_type;
  std::string domain = "ai.onnx";
  std::string name;
  std::vector<std::string> inputs;   // "" for an omitted optional input
  std::vector<std::string> outputs;
  std::map<std::string, OnnxAttribute> attributes;

  const OnnxAttribute* attribute(const std::string& key) const {
    const auto it = attributes.find(key);
    return it == attributes.end() ? nullptr : &it->second;
  }
  int64_t Int(const std::string& key, int64_t fallback) const {
    const OnnxAttribute* a = attribute(key);
    return a ? a->i : fallback;
  }
};

struct OnnxGraph {
  std::map<std::string, int64_t> opsets;  // domain ("ai.onnx" for "") -> version
  std::vector<OnnxValueInfo> inputs;      // initializers listed as inputs left out
  std::vector<std::string> outputs;
  std::vector<OnnxGraphNode> nodes;
  std::unordered_map<std::string, OnnxTensor> initializers;

  int64_t opset() const {
    const auto it = opsets.find("ai.onnx");
    return it == opsets.end() ? 0 : it->second;
  }
};

// Errors name `path` and say the file is not a complete ONNX model.
Result<OnnxGraph> ParseOnnxGraph(std::string_view bytes, const std::string& path);
// The file mapped, not read whole: only the pages the graph's structure lies on are touched.
Result<OnnxGraph> ReadOnnxGraph(const std::string& path);

}  // namespace edgebench
