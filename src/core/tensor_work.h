// The work one query of a tensor model does, counted from its file at the shapes the case bound
// (docs/roofline.md): operations and bytes, for the roofline beside every measurement. A model the
// counter cannot read (an operator it has no rule for, a shape known only at run time) gets no
// count, with the reason: never a guess.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace edgebench {

struct TensorWork {
  std::string omitted;  // non-empty: why there is no count (nothing below is set)
  std::string method;   // "ONNX graph at the bound shapes"
  int64_t nodes = 0;    // the operators counted
  // The precision the products run at, for the compute peak they are held to: "int8" where the
  // convolutions and matrix products take quantized operands, "fp32" otherwise.
  std::string precision = "fp32";
  // Operations per query (a multiply-add is 2): exact for convolutions and matrix products, by
  // rule for the rest (approximations lists the rules and the operators they covered).
  double matmul_flops = 0;  // MatMul, Gemm, fully connected (and their integer forms)
  double conv_flops = 0;    // Conv, ConvTranspose, depthwise (and their integer forms)
  double rule_flops = 0;    // elementwise, normalizations, softmax, pooling, resizing: by rule
  // Bytes per query, a floor: every constant tensor read once, at its stored size (quantized
  // weights at theirs), and every activation (graph inputs and each operator's outputs) once.
  int64_t weight_bytes = 0;
  int64_t activation_bytes = 0;
  std::vector<std::string> approximations;

  bool counted() const { return omitted.empty(); }
  double flops() const { return matmul_flops + conv_flops + rule_flops; }
  double bytes() const { return static_cast<double>(weight_bytes) + static_cast<double>(activation_bytes); }
  bool approximate() const { return rule_flops > 0; }
};

// One input of the case as bound: its name and shape.
using BoundShape = std::pair<std::string, std::vector<int64_t>>;

// By the file's extension: ONNX (core/onnx_work.h) or TFLite (core/tflite_work.h); anything else
// gets a TensorWork that says it was not counted and why.
TensorWork CountTensorWork(const std::string& path, const std::vector<BoundShape>& inputs);

}  // namespace edgebench
