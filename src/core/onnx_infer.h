// Shape inference over an ONNX graph at bound input shapes, one node at a time, for the work
// counter (core/onnx_work.h). Small integer tensors (shapes, axes, indices) are carried by value
// so that Shape -> Gather -> Concat -> Reshape chains resolve; anything the rules do not know is
// an error naming the node, never a guess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/onnx_graph_reader.h"
#include "core/status.h"

namespace edgebench {

struct InferValue {
  int64_t elem_type = 0;  // TensorProto.DataType (0: unknown)
  std::vector<int64_t> shape;
  std::optional<std::vector<int64_t>> ints;   // the values, for a small integer tensor
  std::optional<std::vector<double>> floats;  // the values, for a small float tensor
};

// The elements of `shape`; -1 past int64 (an absurd shape).
int64_t ShapeElements(const std::vector<int64_t>& shape);

// An axis counted from the end (negative) made absolute; error when outside [0, rank).
Result<int64_t> NormalizeAxis(int64_t axis, int64_t rank, const std::string& node);

// Numpy-style broadcasting of two shapes.
Result<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                             const std::string& node);

// Inputs as the node lists them; nullptr for an omitted optional one.
using InferInputs = std::vector<const InferValue*>;

// How a node's operations were counted.
enum class WorkClass { kNone, kMatMul, kConv, kApproximate };
struct NodeCount {
  double flops = 0;
  WorkClass work_class = WorkClass::kNone;
};

// The rules for operators that move or reshape data and compute no arithmetic (Reshape,
// Transpose, Gather, Shape, ...). `handled` false: not one of them.
Status InferDataMovement(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out,
                         int64_t opset, bool& handled);
// The rules for operators that compute (Conv, MatMul, Gemm, pooling, normalizations, elementwise).
Status InferCompute(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out,
                    int64_t opset, NodeCount& count, bool& handled);

}  // namespace edgebench
