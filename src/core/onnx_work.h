// An ONNX model's work per query at the bound input shapes (core/tensor_work.h), from its graph
// read without a runtime (core/onnx_graph_reader.h) and shapes inferred node by node
// (core/onnx_infer.h).
#pragma once

#include <string>
#include <vector>

#include "core/onnx_graph_reader.h"
#include "core/tensor_work.h"

namespace edgebench {

TensorWork CountOnnxWork(const OnnxGraph& graph, const std::vector<BoundShape>& inputs);
TensorWork CountOnnxWorkInFile(const std::string& path, const std::vector<BoundShape>& inputs);

}  // namespace edgebench
