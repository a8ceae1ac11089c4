#include "core/onnx_work.h"

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/onnx_infer.h"

namespace edgebench {
namespace {

TensorWork OnnxOmitted(std::string why) {
  TensorWork work;
  work.omitted = std::move(why);
  return work;
}

std::string OnnxShapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

// Activations of an unknown element type count at 4 bytes (float32) and say so.
int64_t ValueBytes(const InferValue& value, bool& guessed) {
  int64_t size = OnnxElementBytes(value.elem_type);
  if (size == 0) {
    size = 4;
    guessed = true;
  }
  return ShapeElements(value.shape) * size;
}

}  // namespace

TensorWork CountOnnxWork(const OnnxGraph& graph, const std::vector<BoundShape>& inputs) {
  TensorWork work;
  work.method = "ONNX graph at the bound shapes";
  std::unordered_map<std::string, InferValue> values;
  bool guessed_type = false;
  for (const OnnxValueInfo& declared : graph.inputs) {
    InferValue value;
    value.elem_type = declared.elem_type;
    bool bound = false;
    for (const auto& [name, shape] : inputs) {
      if (name == declared.name) {
        value.shape = shape;
        bound = true;
      }
    }
    if (!bound) {
      if (!declared.shape_known) return OnnxOmitted("input '" + declared.name + "' has no shape in the file and was not bound");
      for (const OnnxDim& dim : declared.dims) {
        if (!dim.value) return OnnxOmitted("input '" + declared.name + "' has a free axis and was not bound");
        value.shape.push_back(*dim.value);
      }
    }
    if (ShapeElements(value.shape) < 0) return OnnxOmitted("input '" + declared.name + "' is bound past any tensor's size");
    work.activation_bytes += ValueBytes(value, guessed_type);
    values[declared.name] = std::move(value);
  }
  const int64_t opset = graph.opset();
  std::unordered_set<std::string> weights_read;
  std::map<std::string, int> by_rule;
  for (const OnnxGraphNode& node : graph.nodes) {
    const std::string label = "node '" + node.name + "' (" + node.op_type + ")";
    if (node.domain != "ai.onnx" && node.domain != "ai.onnx.ml") {
      return OnnxOmitted(label + " is in domain '" + node.domain + "', which the work counter has no rules for");
    }
    for (const auto& [key, attribute] : node.attributes) {
      if (attribute.has_graph) return OnnxOmitted(label + " holds a subgraph; control flow is not counted");
    }
    InferInputs in;
    std::vector<InferValue> initializer_values;
    initializer_values.reserve(node.inputs.size());
    for (const std::string& name : node.inputs) {
      if (name.empty()) {
        in.push_back(nullptr);
        continue;
      }
      if (const auto it = values.find(name); it != values.end()) {
        in.push_back(&it->second);
        continue;
      }
      const auto init = graph.initializers.find(name);
      if (init == graph.initializers.end()) {
        return OnnxOmitted(label + " reads '" + name + "', which no input, initializer or earlier node makes");
      }
      const OnnxTensor& tensor = init->second;
      if (weights_read.insert(name).second) work.weight_bytes += tensor.bytes;
      InferValue value;
      value.elem_type = tensor.data_type;
      value.shape = tensor.dims;
      value.ints = tensor.ints;
      value.floats = tensor.floats;
      values[name] = std::move(value);
      in.push_back(&values[name]);
    }
    std::vector<InferValue> out;
    NodeCount count;
    bool handled = false;
    Status status = InferDataMovement(node, in, out, opset, handled);
    if (status.ok() && !handled) status = InferCompute(node, in, out, opset, count, handled);
    if (!status.ok()) return OnnxOmitted(status.message());
    if (!handled) return OnnxOmitted("operator '" + node.op_type + "' (" + label + ") has no rule in the work counter");
    for (size_t k = 0; k < node.outputs.size() && k < out.size(); ++k) {
      if (node.outputs[k].empty()) continue;
      const int64_t elements = ShapeElements(out[k].shape);
      if (elements < 0 || elements > (int64_t{1} << 46)) {
        return OnnxOmitted(label + " would make a tensor of shape " + OnnxShapeText(out[k].shape) +
                       ", past what a query can hold");
      }
      const int64_t bytes = ValueBytes(out[k], guessed_type);
      if (node.op_type == "Constant") work.weight_bytes += bytes;
      else work.activation_bytes += bytes;
      values[node.outputs[k]] = std::move(out[k]);
    }
    ++work.nodes;
    if (node.op_type == "QLinearConv" || node.op_type == "QLinearMatMul" || node.op_type == "ConvInteger" ||
        node.op_type == "MatMulInteger") {
      work.precision = "int8";
    }
    switch (count.work_class) {
      case WorkClass::kMatMul: work.matmul_flops += count.flops; break;
      case WorkClass::kConv: work.conv_flops += count.flops; break;
      case WorkClass::kApproximate:
        work.rule_flops += count.flops;
        ++by_rule[node.op_type];
        break;
      case WorkClass::kNone: break;
    }
  }
  if (!by_rule.empty()) {
    std::string counted;
    for (const auto& [op, n] : by_rule) counted += (counted.empty() ? "" : ", ") + op + " x" + std::to_string(n);
    work.approximations.push_back(
        "by rule: elementwise 1 operation per output element, Softmax 5, LayerNormalization and "
        "InstanceNormalization 8, BatchNormalization 2 per element, pooling 1 per window element, "
        "reductions 1 per input element, resizing 1 per output element (" + counted + ")");
  }
  work.approximations.push_back("bytes are a floor: each constant read once, each activation written once");
  if (guessed_type) work.approximations.push_back("some activations of unknown type counted at 4 bytes per element");
  return work;
}

TensorWork CountOnnxWorkInFile(const std::string& path, const std::vector<BoundShape>& inputs) {
  auto graph = ReadOnnxGraph(path);
  if (!graph.ok()) return OnnxOmitted(graph.error());
  return CountOnnxWork(graph.value(), inputs);
}

}  // namespace edgebench
