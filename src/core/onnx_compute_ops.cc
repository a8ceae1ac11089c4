// Shape and operation-count rules for the ONNX operators that compute. Convolutions and matrix
// products are counted exactly (a multiply-add is 2 operations, a bias add 1 per output);
// elementwise, normalization, softmax, pooling and resizing by a stated rule (docs/roofline.md),
// which makes the total approximate.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/onnx_infer.h"

namespace edgebench {
namespace {

Status ComputeRuleError(const OnnxGraphNode& node, const std::string& what) {
  return Status::Error("node '" + node.name + "' (" + node.op_type + "): " + what);
}

// In double: FLOP counts of large tensors stay exact enough and never overflow.
double ElementCountAsDouble(const std::vector<int64_t>& shape) {
  double n = 1;
  for (int64_t d : shape) n *= static_cast<double>(d);
  return n;
}

const std::set<std::string>& UnaryOps() {
  static const std::set<std::string> ops = {
      "Relu", "Sigmoid", "Tanh", "Erf", "Sqrt", "Exp", "Log", "Neg", "Abs", "Reciprocal", "Gelu", "HardSigmoid",
      "HardSwish", "LeakyRelu", "Elu", "Selu", "Celu", "Softplus", "Softsign", "Clip", "Ceil", "Floor", "Round",
      "Sin", "Cos", "Not", "Sign", "Mish", "ThresholdedRelu", "IsNaN", "IsInf", "QuantizeLinear",
      "DequantizeLinear", "Shrink"};
  return ops;
}
const std::set<std::string>& BinaryOps() {
  static const std::set<std::string> ops = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mod", "Equal",
                                            "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or",
                                            "Xor", "PRelu", "Where", "Sum", "Mean", "BitShift"};
  return ops;
}
bool IsComparison(const std::string& op) {
  return op == "Equal" || op == "Less" || op == "LessOrEqual" || op == "Greater" || op == "GreaterOrEqual" ||
         op == "And" || op == "Or" || op == "Xor" || op == "Not" || op == "IsNaN" || op == "IsInf";
}

// The flat index into a broadcast input of the output element at `index`.
int64_t BroadcastIndex(int64_t index, const std::vector<int64_t>& out, const std::vector<int64_t>& in) {
  int64_t source = 0, stride = 1;
  for (size_t k = out.size(); k-- > 0;) {
    const int64_t coordinate = index % out[k];
    index /= out[k];
    const size_t offset = out.size() - in.size();
    if (k >= offset) {
      const int64_t d = in[k - offset];
      if (d != 1) source += coordinate * stride;
      stride *= d;
    }
  }
  return source;
}

// Integer values through the elementwise operators that compute shapes (Add, Mul, Equal, Where...).
std::optional<std::vector<int64_t>> FoldInts(const std::string& op, const InferInputs& in,
                                             const std::vector<int64_t>& shape) {
  for (const InferValue* v : in) {
    if (!v || !v->ints) return std::nullopt;
  }
  const int64_t n = ShapeElements(shape);
  if (n < 0 || n > kOnnxKeptValues) return std::nullopt;
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    auto at = [&](size_t k) { return (*in[k]->ints)[BroadcastIndex(i, shape, in[k]->shape)]; };
    if (op == "Where") {
      out[i] = at(0) ? at(1) : at(2);
      continue;
    }
    if (in.size() != 2) return std::nullopt;
    const int64_t a = at(0), b = at(1);
    if (op == "Add") out[i] = a + b;
    else if (op == "Sub") out[i] = a - b;
    else if (op == "Mul") out[i] = a * b;
    else if (op == "Div" && b != 0) out[i] = a / b;
    else if (op == "Equal") out[i] = a == b;
    else if (op == "Less") out[i] = a < b;
    else if (op == "Greater") out[i] = a > b;
    else if (op == "Max") out[i] = std::max(a, b);
    else if (op == "Min") out[i] = std::min(a, b);
    else return std::nullopt;
  }
  return out;
}

struct Window {
  std::vector<int64_t> kernel, strides, dilations, pads;
  std::string auto_pad;
};

Result<Window> ReadWindow(const OnnxGraphNode& node, const std::vector<int64_t>& kernel, size_t spatial) {
  Window w;
  w.kernel = kernel;
  const auto ints = [&](const char* key, int64_t fallback, size_t count) {
    const OnnxAttribute* a = node.attribute(key);
    return a && !a->ints.empty() ? a->ints : std::vector<int64_t>(count, fallback);
  };
  w.strides = ints("strides", 1, spatial);
  w.dilations = ints("dilations", 1, spatial);
  w.pads = ints("pads", 0, 2 * spatial);
  const OnnxAttribute* pad = node.attribute("auto_pad");
  w.auto_pad = pad ? pad->s : "NOTSET";
  if (w.kernel.size() != spatial || w.strides.size() != spatial || w.dilations.size() != spatial ||
      w.pads.size() != 2 * spatial) {
    return ComputeRuleError(node, "its kernel, strides, dilations or pads do not match its input's rank");
  }
  for (size_t i = 0; i < spatial; ++i) {
    if (w.strides[i] <= 0 || w.dilations[i] <= 0 || w.kernel[i] <= 0) {
      return ComputeRuleError(node, "a stride, dilation or kernel size is not positive");
    }
  }
  return w;
}

// The spatial output sizes of a sliding window (Conv, pooling).
Result<std::vector<int64_t>> WindowOutput(const OnnxGraphNode& node, const std::vector<int64_t>& in, const Window& w,
                                          bool ceil_mode) {
  std::vector<int64_t> out;
  const size_t spatial = w.kernel.size();
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t extent = (w.kernel[i] - 1) * w.dilations[i] + 1;
    int64_t size = 0;
    if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") {
      size = (in[i] + w.strides[i] - 1) / w.strides[i];
    } else {
      const int64_t padded = in[i] + (w.auto_pad == "VALID" ? 0 : w.pads[i] + w.pads[i + spatial]) - extent;
      if (padded < 0) return ComputeRuleError(node, "its window is larger than its padded input");
      size = (ceil_mode ? (padded + w.strides[i] - 1) / w.strides[i] : padded / w.strides[i]) + 1;
    }
    out.push_back(size);
  }
  return out;
}

Status Conv(const OnnxGraphNode& node, const InferValue& x, const InferValue& weight, bool has_bias,
            int64_t out_type, std::vector<InferValue>& out, NodeCount& count) {
  if (x.shape.size() < 3 || weight.shape.size() != x.shape.size()) {
    return ComputeRuleError(node, "its input and weight must have the same rank, at least 3");
  }
  const size_t spatial = x.shape.size() - 2;
  const int64_t group = node.Int("group", 1);
  if (group <= 0 || x.shape[1] != weight.shape[1] * group || weight.shape[0] % group != 0) {
    return ComputeRuleError(node, "its channels do not match its weight and group");
  }
  auto window = ReadWindow(node, std::vector<int64_t>(weight.shape.begin() + 2, weight.shape.end()), spatial);
  if (!window.ok()) return window.status();
  auto sizes = WindowOutput(node, std::vector<int64_t>(x.shape.begin() + 2, x.shape.end()), window.value(), false);
  if (!sizes.ok()) return sizes.status();
  InferValue y;
  y.elem_type = out_type;
  y.shape = {x.shape[0], weight.shape[0]};
  y.shape.insert(y.shape.end(), sizes.value().begin(), sizes.value().end());
  const double outputs = ElementCountAsDouble(y.shape);
  count.flops = 2 * outputs * ElementCountAsDouble(std::vector<int64_t>(weight.shape.begin() + 1, weight.shape.end())) +
                (has_bias ? outputs : 0);
  count.work_class = WorkClass::kConv;
  out.push_back(std::move(y));
  return Status::Ok();
}

Status ConvTranspose(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out, NodeCount& count) {
  if (in.size() < 2 || !in[1]) return ComputeRuleError(node, "it needs an input and a weight");
  const InferValue& x = *in[0];
  const InferValue& weight = *in[1];
  if (x.shape.size() < 3 || weight.shape.size() != x.shape.size() || weight.shape[0] != x.shape[1]) {
    return ComputeRuleError(node, "its input and weight do not match");
  }
  const size_t spatial = x.shape.size() - 2;
  const int64_t group = node.Int("group", 1);
  auto window = ReadWindow(node, std::vector<int64_t>(weight.shape.begin() + 2, weight.shape.end()), spatial);
  if (!window.ok()) return window.status();
  const Window& w = window.value();
  const OnnxAttribute* output_shape = node.attribute("output_shape");
  const OnnxAttribute* output_padding = node.attribute("output_padding");
  InferValue y;
  y.elem_type = x.elem_type;
  y.shape = {x.shape[0], weight.shape[1] * group};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in_size = x.shape[i + 2];
    int64_t size = 0;
    if (output_shape && output_shape->ints.size() == spatial) {
      size = output_shape->ints[i];
    } else if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") {
      size = in_size * w.strides[i];
    } else {
      const int64_t padding = output_padding && output_padding->ints.size() == spatial ? output_padding->ints[i] : 0;
      size = w.strides[i] * (in_size - 1) + padding + (w.kernel[i] - 1) * w.dilations[i] + 1 -
             (w.auto_pad == "VALID" ? 0 : w.pads[i] + w.pads[i + spatial]);
    }
    if (size <= 0) return ComputeRuleError(node, "its output would be empty");
    y.shape.push_back(size);
  }
  count.flops = 2 * ElementCountAsDouble(x.shape) * ElementCountAsDouble(std::vector<int64_t>(weight.shape.begin() + 1, weight.shape.end())) +
                (in.size() > 2 && in[2] ? ElementCountAsDouble(y.shape) : 0);
  count.work_class = WorkClass::kConv;
  out.push_back(std::move(y));
  return Status::Ok();
}

Status MatMul(const OnnxGraphNode& node, const InferValue& a, const InferValue& b, int64_t out_type,
              std::vector<InferValue>& out, NodeCount& count) {
  if (a.shape.empty() || b.shape.empty()) return ComputeRuleError(node, "a scalar input");
  std::vector<int64_t> sa = a.shape, sb = b.shape;
  const bool vector_a = sa.size() == 1, vector_b = sb.size() == 1;
  if (vector_a) sa.insert(sa.begin(), 1);
  if (vector_b) sb.push_back(1);
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  if (sb[sb.size() - 2] != k) {
    return ComputeRuleError(node, "its inner dimensions differ (" + std::to_string(k) + " and " +
                             std::to_string(sb[sb.size() - 2]) + ")");
  }
  auto batch = BroadcastShapes(std::vector<int64_t>(sa.begin(), sa.end() - 2),
                               std::vector<int64_t>(sb.begin(), sb.end() - 2), node.name);
  if (!batch.ok()) return batch.status();
  InferValue y;
  y.elem_type = out_type;
  y.shape = batch.value();
  if (!vector_a) y.shape.push_back(m);
  if (!vector_b) y.shape.push_back(n);
  count.flops = 2 * ElementCountAsDouble(batch.value()) * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  count.work_class = WorkClass::kMatMul;
  out.push_back(std::move(y));
  return Status::Ok();
}

Status Gemm(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out, NodeCount& count) {
  if (in.size() < 2 || !in[1]) return ComputeRuleError(node, "it needs A and B");
  const InferValue& a = *in[0];
  const InferValue& b = *in[1];
  if (a.shape.size() != 2 || b.shape.size() != 2) return ComputeRuleError(node, "A and B must be 2-D");
  const bool ta = node.Int("transA", 0) != 0, tb = node.Int("transB", 0) != 0;
  const int64_t m = ta ? a.shape[1] : a.shape[0], k = ta ? a.shape[0] : a.shape[1];
  const int64_t kb = tb ? b.shape[1] : b.shape[0], n = tb ? b.shape[0] : b.shape[1];
  if (k != kb) return ComputeRuleError(node, "its inner dimensions differ");
  InferValue y;
  y.elem_type = a.elem_type;
  y.shape = {m, n};
  const double outputs = static_cast<double>(m) * static_cast<double>(n);
  count.flops = 2 * outputs * static_cast<double>(k) + (in.size() > 2 && in[2] ? outputs : 0);
  count.work_class = WorkClass::kMatMul;
  out.push_back(std::move(y));
  return Status::Ok();
}

Status Pool(const OnnxGraphNode& node, const InferValue& x, std::vector<InferValue>& out, NodeCount& count) {
  if (x.shape.size() < 3) return ComputeRuleError(node, "its input must have at least 3 axes");
  const size_t spatial = x.shape.size() - 2;
  InferValue y;
  y.elem_type = x.elem_type;
  y.shape = {x.shape[0], x.shape[1]};
  count.work_class = WorkClass::kApproximate;
  if (node.op_type.rfind("Global", 0) == 0) {
    y.shape.insert(y.shape.end(), spatial, 1);
    count.flops = ElementCountAsDouble(x.shape);
  } else {
    const OnnxAttribute* kernel = node.attribute("kernel_shape");
    if (!kernel) return ComputeRuleError(node, "it has no kernel_shape");
    auto window = ReadWindow(node, kernel->ints, spatial);
    if (!window.ok()) return window.status();
    auto sizes = WindowOutput(node, std::vector<int64_t>(x.shape.begin() + 2, x.shape.end()), window.value(),
                              node.Int("ceil_mode", 0) != 0);
    if (!sizes.ok()) return sizes.status();
    y.shape.insert(y.shape.end(), sizes.value().begin(), sizes.value().end());
    count.flops = ElementCountAsDouble(y.shape) * ElementCountAsDouble(kernel->ints);
  }
  out.push_back(std::move(y));
  if (node.outputs.size() > 1) out.push_back(out.back());  // MaxPool's indices
  return Status::Ok();
}

Status Reduce(const OnnxGraphNode& node, const InferInputs& in, int64_t opset, std::vector<InferValue>& out,
              NodeCount& count) {
  const InferValue& x = *in[0];
  std::vector<int64_t> axes;
  if (const OnnxAttribute* a = node.attribute("axes")) axes = a->ints;
  const bool axes_input = (node.op_type == "ReduceSum" && opset >= 13) || opset >= 18;
  if (axes_input && in.size() > 1 && in[1]) {
    if (!in[1]->ints) return ComputeRuleError(node, "its axes are computed at run time");
    axes = *in[1]->ints;
  }
  const bool keep = node.Int("keepdims", 1) != 0;
  const auto rank = static_cast<int64_t>(x.shape.size());
  std::vector<bool> reduced(x.shape.size(), axes.empty() && node.Int("noop_with_empty_axes", 0) == 0);
  if (node.op_type == "ArgMax" || node.op_type == "ArgMin") {
    auto axis = NormalizeAxis(node.Int("axis", 0), rank, node.name);
    if (!axis.ok()) return axis.status();
    reduced.assign(x.shape.size(), false);
    reduced[axis.value()] = true;
  }
  for (int64_t a : axes) {
    auto axis = NormalizeAxis(a, rank, node.name);
    if (!axis.ok()) return axis.status();
    reduced[axis.value()] = true;
  }
  InferValue y;
  y.elem_type = node.op_type.rfind("Arg", 0) == 0 ? 7 : x.elem_type;
  for (size_t i = 0; i < x.shape.size(); ++i) {
    if (!reduced[i]) y.shape.push_back(x.shape[i]);
    else if (keep) y.shape.push_back(1);
  }
  count.flops = ElementCountAsDouble(x.shape);
  count.work_class = WorkClass::kApproximate;
  out.push_back(std::move(y));
  return Status::Ok();
}

Status Resize(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out, NodeCount& count) {
  const InferValue& x = *in[0];
  InferValue y;
  y.elem_type = x.elem_type;
  // Upsample(X, scales); Resize(X, roi, scales, sizes) from opset 11, Resize(X, scales) in 10.
  const InferValue* scales = nullptr;
  const InferValue* sizes = nullptr;
  if (node.op_type == "Upsample" || in.size() == 2) scales = in.size() > 1 ? in[1] : nullptr;
  else {
    scales = in.size() > 2 ? in[2] : nullptr;
    sizes = in.size() > 3 ? in[3] : nullptr;
  }
  if (sizes && sizes->ints && !sizes->ints->empty()) {
    if (sizes->ints->size() != x.shape.size()) return ComputeRuleError(node, "its sizes do not match its input's rank");
    y.shape = *sizes->ints;
  } else if (scales && scales->floats && !scales->floats->empty()) {
    if (scales->floats->size() != x.shape.size()) return ComputeRuleError(node, "its scales do not match its input's rank");
    for (size_t i = 0; i < x.shape.size(); ++i) {
      y.shape.push_back(static_cast<int64_t>(std::floor(static_cast<double>(x.shape[i]) * (*scales->floats)[i])));
    }
  } else {
    return ComputeRuleError(node, "its scales or sizes are computed at run time");
  }
  count.flops = ElementCountAsDouble(y.shape);
  count.work_class = WorkClass::kApproximate;
  out.push_back(std::move(y));
  return Status::Ok();
}

}  // namespace

Status InferCompute(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out, int64_t opset,
                    NodeCount& count, bool& handled) {
  handled = true;
  const std::string& op = node.op_type;
  if (in.empty() || in[0] == nullptr) {
    handled = UnaryOps().count(op) || BinaryOps().count(op);
    return handled ? ComputeRuleError(node, "its first input is missing") : Status::Ok();
  }
  const InferValue& x = *in[0];
  const auto input = [&](size_t k) -> const InferValue* { return k < in.size() ? in[k] : nullptr; };
  if (op == "Conv" || op == "ConvInteger") {
    if (!input(1)) return ComputeRuleError(node, "it has no weight");
    return Conv(node, x, *in[1], op == "Conv" && input(2), op == "Conv" ? x.elem_type : 6, out, count);
  }
  if (op == "QLinearConv") {
    if (!input(3)) return ComputeRuleError(node, "it has no weight");
    return Conv(node, x, *in[3], input(8) != nullptr, input(7) ? in[7]->elem_type : 2, out, count);
  }
  if (op == "ConvTranspose") return ConvTranspose(node, in, out, count);
  if (op == "MatMul" || op == "MatMulInteger") {
    if (!input(1)) return ComputeRuleError(node, "it has no second input");
    return MatMul(node, x, *in[1], op == "MatMul" ? x.elem_type : 6, out, count);
  }
  if (op == "QLinearMatMul") {
    if (!input(3)) return ComputeRuleError(node, "it has no second input");
    return MatMul(node, x, *in[3], input(7) ? in[7]->elem_type : 2, out, count);
  }
  if (op == "Gemm") return Gemm(node, in, out, count);
  if (op == "MaxPool" || op == "AveragePool" || op == "LpPool" || op == "GlobalAveragePool" ||
      op == "GlobalMaxPool" || op == "GlobalLpPool") {
    return Pool(node, x, out, count);
  }
  if (op.rfind("Reduce", 0) == 0 || op == "ArgMax" || op == "ArgMin") return Reduce(node, in, opset, out, count);
  if (op == "Resize" || op == "Upsample") return Resize(node, in, out, count);
  // Elementwise and normalizations: one output like the input, operations by rule.
  static const std::map<std::string, double> kPerElement = {
      {"Softmax", 5}, {"LogSoftmax", 5}, {"LayerNormalization", 8}, {"BatchNormalization", 2},
      {"InstanceNormalization", 8}, {"GroupNormalization", 8}, {"LpNormalization", 3}};
  if (const auto rule = kPerElement.find(op); rule != kPerElement.end()) {
    InferValue y;
    y.elem_type = x.elem_type;
    y.shape = x.shape;
    count.flops = rule->second * ElementCountAsDouble(x.shape);
    count.work_class = WorkClass::kApproximate;
    out.push_back(std::move(y));
    return Status::Ok();
  }
  if (UnaryOps().count(op) || BinaryOps().count(op)) {
    std::vector<int64_t> shape = x.shape;
    for (size_t k = 1; k < in.size(); ++k) {
      if (!in[k]) continue;
      if (UnaryOps().count(op)) break;  // Clip's bounds, QuantizeLinear's scale: not broadcast operands
      auto b = BroadcastShapes(shape, in[k]->shape, node.name);
      if (!b.ok()) return b.status();
      shape = b.take();
    }
    InferValue y;
    y.elem_type = IsComparison(op) ? 9 : op == "Where" && input(1) ? in[1]->elem_type : x.elem_type;
    if (op == "QuantizeLinear") y.elem_type = input(2) ? in[2]->elem_type : 2;
    if (op == "DequantizeLinear") y.elem_type = 1;
    y.shape = shape;
    if (BinaryOps().count(op)) y.ints = FoldInts(op, in, shape);
    if (op == "Neg" && x.ints) {
      y.ints = *x.ints;
      for (int64_t& v : *y.ints) v = -v;
    }
    count.flops = ElementCountAsDouble(shape);
    count.work_class = WorkClass::kApproximate;
    out.push_back(std::move(y));
    return Status::Ok();
  }
  handled = false;
  return Status::Ok();
}

}  // namespace edgebench
