// Shape rules for the ONNX operators that move data: their outputs' shapes, and their values
// where the inputs' values are known (the integer chains that compute shapes).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "core/onnx_infer.h"

namespace edgebench {

int64_t ShapeElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

Result<int64_t> NormalizeAxis(int64_t axis, int64_t rank, const std::string& node) {
  const int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank) {
    return Status::Error("node '" + node + "': axis " + std::to_string(axis) + " is outside a rank-" +
                         std::to_string(rank) + " tensor");
  }
  return normalized;
}

Result<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                             const std::string& node) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return Status::Error("node '" + node + "': shapes do not broadcast (" + std::to_string(da) + " against " +
                           std::to_string(db) + ")");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

namespace {

Status MovementRuleError(const OnnxGraphNode& node, const std::string& what) {
  return Status::Error("node '" + node.name + "' (" + node.op_type + "): " + what);
}

// A required integer input's values (a shape, axes, indices): error when not known statically.
Result<std::vector<int64_t>> IntsOf(const OnnxGraphNode& node, const InferInputs& in, size_t index,
                                    const std::string& what) {
  if (index >= in.size() || in[index] == nullptr) return MovementRuleError(node, "its " + what + " input is missing");
  if (!in[index]->ints) return MovementRuleError(node, "its " + what + " is computed at run time, not known from the file");
  return *in[index]->ints;
}

std::vector<int64_t> AttrInts(const OnnxGraphNode& node, const std::string& key) {
  const OnnxAttribute* a = node.attribute(key);
  return a ? a->ints : std::vector<int64_t>{};
}

// Values of an integer tensor of `shape` taken along `axis` at `indices` (Gather).
std::vector<int64_t> GatherValues(const std::vector<int64_t>& data, const std::vector<int64_t>& shape, int64_t axis,
                                  const std::vector<int64_t>& indices) {
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= shape[i];
  for (size_t i = static_cast<size_t>(axis) + 1; i < shape.size(); ++i) inner *= shape[i];
  const int64_t n = shape[axis];
  std::vector<int64_t> out;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : indices) {
      const int64_t k = index < 0 ? index + n : index;
      for (int64_t j = 0; j < inner; ++j) out.push_back(data[(o * n + k) * inner + j]);
    }
  }
  return out;
}

InferValue Like(const InferValue& v, std::vector<int64_t> shape) {
  InferValue out;
  out.elem_type = v.elem_type;
  out.shape = std::move(shape);
  return out;
}

Status Reshape(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out) {
  auto target = IntsOf(node, in, 1, "shape");
  if (!target.ok()) return target.status();
  const InferValue& data = *in[0];
  std::vector<int64_t> shape = target.take();
  const bool allow_zero = node.Int("allowzero", 0) != 0;
  int64_t known = 1;
  int infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allow_zero) {
      if (i >= data.shape.size()) return MovementRuleError(node, "a 0 in its shape names an axis the input lacks");
      shape[i] = data.shape[i];
    }
    if (shape[i] == -1) {
      if (infer >= 0) return MovementRuleError(node, "its shape has two -1 axes");
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      return MovementRuleError(node, "its shape has a negative axis");
    } else {
      known *= shape[i];
    }
  }
  const int64_t total = ShapeElements(data.shape);
  if (infer >= 0) {
    if (known == 0 || total % known != 0) return MovementRuleError(node, "its -1 axis does not divide the input");
    shape[infer] = total / known;
  } else if (ShapeElements(shape) != total) {
    return MovementRuleError(node, "its shape holds another number of elements than its input");
  }
  out.push_back(Like(data, shape));
  if (data.ints) out.back().ints = data.ints;
  if (data.floats) out.back().floats = data.floats;
  return Status::Ok();
}

Status Transpose(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out) {
  const InferValue& data = *in[0];
  std::vector<int64_t> perm = AttrInts(node, "perm");
  if (perm.empty()) {
    for (size_t i = data.shape.size(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  }
  if (perm.size() != data.shape.size()) return MovementRuleError(node, "its perm does not match its input's rank");
  std::vector<int64_t> shape;
  for (int64_t p : perm) {
    auto axis = NormalizeAxis(p, static_cast<int64_t>(data.shape.size()), node.name);
    if (!axis.ok()) return axis.status();
    shape.push_back(data.shape[axis.value()]);
  }
  out.push_back(Like(data, shape));
  return Status::Ok();
}

Status Concat(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out) {
  const InferValue* first = nullptr;
  for (const InferValue* v : in) {
    if (v) { first = v; break; }
  }
  if (!first) return MovementRuleError(node, "it has no inputs");
  auto axis = NormalizeAxis(node.Int("axis", 0), static_cast<int64_t>(first->shape.size()), node.name);
  if (!axis.ok()) return axis.status();
  std::vector<int64_t> shape = first->shape;
  shape[axis.value()] = 0;
  bool values = true;
  std::vector<int64_t> ints;
  for (const InferValue* v : in) {
    if (!v) continue;
    if (v->shape.size() != shape.size()) return MovementRuleError(node, "its inputs have different ranks");
    for (size_t i = 0; i < shape.size(); ++i) {
      if (static_cast<int64_t>(i) != axis.value() && v->shape[i] != first->shape[i]) {
        return MovementRuleError(node, "its inputs differ on an axis other than the one joined");
      }
    }
    shape[axis.value()] += v->shape[axis.value()];
    if (v->ints && shape.size() == 1) ints.insert(ints.end(), v->ints->begin(), v->ints->end());
    else values = false;
  }
  out.push_back(Like(*first, shape));
  if (values) out.back().ints = ints;
  return Status::Ok();
}

Status Gather(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out) {
  if (in.size() < 2 || !in[1]) return MovementRuleError(node, "it needs data and indices");
  const InferValue& data = *in[0];
  const InferValue& indices = *in[1];
  auto axis = NormalizeAxis(node.Int("axis", 0), static_cast<int64_t>(data.shape.size()), node.name);
  if (!axis.ok()) return axis.status();
  std::vector<int64_t> shape(data.shape.begin(), data.shape.begin() + axis.value());
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), data.shape.begin() + axis.value() + 1, data.shape.end());
  out.push_back(Like(data, shape));
  if (data.ints && indices.ints) {
    for (int64_t i : *indices.ints) {
      const int64_t n = data.shape[axis.value()];
      if (i < -n || i >= n) return MovementRuleError(node, "an index is outside its data");
    }
    out.back().ints = GatherValues(*data.ints, data.shape, axis.value(), *indices.ints);
  }
  return Status::Ok();
}

Status Shape(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out) {
  const auto rank = static_cast<int64_t>(in[0]->shape.size());
  int64_t start = node.Int("start", 0), end = node.Int("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  InferValue v;
  v.elem_type = 7;
  v.ints = std::vector<int64_t>(in[0]->shape.begin() + start, in[0]->shape.begin() + end);
  v.shape = {end - start};
  out.push_back(std::move(v));
  return Status::Ok();
}

Status Slice(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out, int64_t opset) {
  const InferValue& data = *in[0];
  std::vector<int64_t> starts, ends, axes, steps;
  if (opset < 10) {
    starts = AttrInts(node, "starts");
    ends = AttrInts(node, "ends");
    axes = AttrInts(node, "axes");
  } else {
    auto s = IntsOf(node, in, 1, "starts");
    auto e = IntsOf(node, in, 2, "ends");
    if (!s.ok()) return s.status();
    if (!e.ok()) return e.status();
    starts = s.take();
    ends = e.take();
    if (in.size() > 3 && in[3]) {
      auto a = IntsOf(node, in, 3, "axes");
      if (!a.ok()) return a.status();
      axes = a.take();
    }
    if (in.size() > 4 && in[4]) {
      auto st = IntsOf(node, in, 4, "steps");
      if (!st.ok()) return st.status();
      steps = st.take();
    }
  }
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
    return MovementRuleError(node, "its starts, ends, axes and steps differ in length");
  }
  std::vector<int64_t> shape = data.shape;
  std::vector<int64_t> first(shape.size(), 0), stride(shape.size(), 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    auto axis = NormalizeAxis(axes[i], static_cast<int64_t>(shape.size()), node.name);
    if (!axis.ok()) return axis.status();
    const int64_t n = data.shape[axis.value()];
    const int64_t step = steps[i];
    if (step == 0) return MovementRuleError(node, "a step is 0");
    int64_t s = starts[i] < 0 ? starts[i] + n : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + n : ends[i];
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, n);
      e = std::clamp<int64_t>(e, 0, n);
      shape[axis.value()] = e > s ? (e - s + step - 1) / step : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, n - 1);
      e = std::clamp<int64_t>(e, -1, n - 1);
      shape[axis.value()] = s > e ? (s - e - step - 1) / -step : 0;
    }
    first[axis.value()] = s;
    stride[axis.value()] = step;
  }
  out.push_back(Like(data, shape));
  if (data.ints && data.shape.size() == 1) {
    std::vector<int64_t> values;
    for (int64_t k = 0; k < shape[0]; ++k) values.push_back((*data.ints)[first[0] + k * stride[0]]);
    out.back().ints = values;
  }
  return Status::Ok();
}

// Unsqueeze and Squeeze: axes from the attribute (before opset 13) or the second input.
Status SqueezeOrUnsqueeze(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out,
                          int64_t opset, bool unsqueeze) {
  const InferValue& data = *in[0];
  std::vector<int64_t> axes = AttrInts(node, "axes");
  if (opset >= 13 && in.size() > 1 && in[1]) {
    auto a = IntsOf(node, in, 1, "axes");
    if (!a.ok()) return a.status();
    axes = a.take();
  }
  std::vector<int64_t> shape;
  if (unsqueeze) {
    const auto rank = static_cast<int64_t>(data.shape.size() + axes.size());
    std::vector<bool> inserted(static_cast<size_t>(rank), false);
    for (int64_t a : axes) {
      auto axis = NormalizeAxis(a, rank, node.name);
      if (!axis.ok()) return axis.status();
      inserted[axis.value()] = true;
    }
    size_t next = 0;
    for (int64_t i = 0; i < rank; ++i) shape.push_back(inserted[i] ? 1 : data.shape[next++]);
  } else {
    const auto rank = static_cast<int64_t>(data.shape.size());
    std::vector<bool> removed(data.shape.size(), false);
    for (int64_t a : axes) {
      auto axis = NormalizeAxis(a, rank, node.name);
      if (!axis.ok()) return axis.status();
      removed[axis.value()] = true;
    }
    for (size_t i = 0; i < data.shape.size(); ++i) {
      if (axes.empty() ? data.shape[i] != 1 : !removed[i]) shape.push_back(data.shape[i]);
    }
  }
  out.push_back(Like(data, shape));
  if (data.ints) out.back().ints = data.ints;
  return Status::Ok();
}

Status Constant(const OnnxGraphNode& node, std::vector<InferValue>& out) {
  InferValue v;
  if (const OnnxAttribute* a = node.attribute("value"); a && a->t) {
    v.elem_type = a->t->data_type;
    v.shape = a->t->dims;
    v.ints = a->t->ints;
    v.floats = a->t->floats;
  } else if (const OnnxAttribute* i = node.attribute("value_int")) {
    v.elem_type = 7;
    v.ints = std::vector<int64_t>{i->i};
  } else if (const OnnxAttribute* is = node.attribute("value_ints")) {
    v.elem_type = 7;
    v.shape = {static_cast<int64_t>(is->ints.size())};
    v.ints = is->ints;
  } else if (const OnnxAttribute* f = node.attribute("value_float")) {
    v.elem_type = 1;
    v.floats = std::vector<double>{f->f};
  } else if (const OnnxAttribute* fs = node.attribute("value_floats")) {
    v.elem_type = 1;
    v.shape = {static_cast<int64_t>(fs->floats.size())};
    v.floats = fs->floats;
  } else {
    return MovementRuleError(node, "its value is of a kind the counter does not read (sparse or string)");
  }
  out.push_back(std::move(v));
  return Status::Ok();
}

Status Split(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out, int64_t opset) {
  const InferValue& data = *in[0];
  auto axis = NormalizeAxis(node.Int("axis", 0), static_cast<int64_t>(data.shape.size()), node.name);
  if (!axis.ok()) return axis.status();
  std::vector<int64_t> sizes = AttrInts(node, "split");
  if (opset >= 13 && in.size() > 1 && in[1]) {
    auto s = IntsOf(node, in, 1, "split");
    if (!s.ok()) return s.status();
    sizes = s.take();
  }
  const int64_t n = data.shape[axis.value()];
  const auto parts = static_cast<int64_t>(node.outputs.size());
  if (sizes.empty()) {
    const int64_t each = (n + parts - 1) / parts;  // the last part takes what is left (opset 18)
    for (int64_t k = 0; k < parts; ++k) sizes.push_back(std::min(each, n - k * each));
  }
  if (static_cast<int64_t>(sizes.size()) != parts) return MovementRuleError(node, "its split sizes do not match its outputs");
  for (int64_t size : sizes) {
    std::vector<int64_t> shape = data.shape;
    shape[axis.value()] = size;
    out.push_back(Like(data, shape));
  }
  return Status::Ok();
}

}  // namespace

Status InferDataMovement(const OnnxGraphNode& node, const InferInputs& in, std::vector<InferValue>& out,
                         int64_t opset, bool& handled) {
  static const std::set<std::string> kOps = {
      "Identity", "Dropout", "Cast", "Reshape", "Transpose", "Concat", "Gather", "Shape", "Size", "Slice",
      "Unsqueeze", "Squeeze", "Split", "Flatten", "Expand", "Tile", "ConstantOfShape", "Range", "Pad",
      "DepthToSpace", "SpaceToDepth", "Constant"};
  const std::string& op = node.op_type;
  handled = kOps.count(op) > 0;
  if (!handled) return Status::Ok();
  if (op == "Constant") return Constant(node, out);
  if (op == "Concat") return Concat(node, in, out);
  if (in.empty() || in[0] == nullptr) return MovementRuleError(node, "its first input is missing");
  const InferValue& data = *in[0];
  if (op == "Identity" || op == "Dropout") {
    out.push_back(data);
    return Status::Ok();
  }
  if (op == "Cast") {
    InferValue v = data;
    v.elem_type = node.Int("to", data.elem_type);
    if (v.floats && !v.ints && OnnxElementBytes(v.elem_type) > 0 && v.elem_type != 1 && v.elem_type != 11 &&
        v.elem_type != 10 && v.elem_type != 16) {
      std::vector<int64_t> ints;
      for (double f : *v.floats) ints.push_back(static_cast<int64_t>(f));
      v.ints = ints;
      v.floats.reset();
    } else if (v.ints && (v.elem_type == 1 || v.elem_type == 11)) {
      v.floats = std::vector<double>(v.ints->begin(), v.ints->end());
      v.ints.reset();
    }
    out.push_back(std::move(v));
    return Status::Ok();
  }
  if (op == "Reshape") return Reshape(node, in, out);
  if (op == "Transpose") return Transpose(node, in, out);
  if (op == "Concat") return Concat(node, in, out);
  if (op == "Gather") return Gather(node, in, out);
  if (op == "Shape") return Shape(node, in, out);
  if (op == "Size") {
    InferValue v;
    v.elem_type = 7;
    v.ints = std::vector<int64_t>{ShapeElements(data.shape)};
    out.push_back(std::move(v));
    return Status::Ok();
  }
  if (op == "Slice") return Slice(node, in, out, opset);
  if (op == "Unsqueeze") return SqueezeOrUnsqueeze(node, in, out, opset, true);
  if (op == "Squeeze") return SqueezeOrUnsqueeze(node, in, out, opset, false);
  if (op == "Split") return Split(node, in, out, opset);
  if (op == "Flatten") {
    const auto rank = static_cast<int64_t>(data.shape.size());
    int64_t axis = node.Int("axis", 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis > rank) return MovementRuleError(node, "its axis is outside its input");
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= data.shape[i];
    out.push_back(Like(data, {outer, inner}));
    return Status::Ok();
  }
  if (op == "Expand" || op == "Tile") {
    auto arg = IntsOf(node, in, 1, op == "Expand" ? "shape" : "repeats");
    if (!arg.ok()) return arg.status();
    if (op == "Expand") {
      auto shape = BroadcastShapes(data.shape, arg.value(), node.name);
      if (!shape.ok()) return shape.status();
      out.push_back(Like(data, shape.take()));
      return Status::Ok();
    }
    if (arg.value().size() != data.shape.size()) return MovementRuleError(node, "its repeats do not match its input's rank");
    std::vector<int64_t> shape = data.shape;
    for (size_t i = 0; i < shape.size(); ++i) shape[i] *= arg.value()[i];
    out.push_back(Like(data, shape));
    return Status::Ok();
  }
  if (op == "ConstantOfShape") {
    auto shape = IntsOf(node, in, 0, "shape");
    if (!shape.ok()) return shape.status();
    InferValue v;
    v.elem_type = 1;
    const OnnxAttribute* value = node.attribute("value");
    if (value && value->t) v.elem_type = value->t->data_type;
    v.shape = shape.take();
    const int64_t n = ShapeElements(v.shape);
    if (n < 0) return MovementRuleError(node, "its shape is past any tensor's size");
    if (n <= kOnnxKeptValues && value && value->t && value->t->ints && !value->t->ints->empty()) {
      v.ints = std::vector<int64_t>(static_cast<size_t>(n), value->t->ints->front());
    } else if (n <= kOnnxKeptValues && (!value || !value->t)) {
      v.floats = std::vector<double>(static_cast<size_t>(n), 0.0);
    }
    out.push_back(std::move(v));
    return Status::Ok();
  }
  if (op == "Range") {
    if (in.size() < 3 || !in[1] || !in[2] || !data.ints || !in[1]->ints || !in[2]->ints) {
      return MovementRuleError(node, "its start, limit or delta is computed at run time");
    }
    const int64_t start = data.ints->at(0), limit = in[1]->ints->at(0), delta = in[2]->ints->at(0);
    if (delta == 0) return MovementRuleError(node, "its delta is 0");
    const int64_t n = std::max<int64_t>(0, (limit - start + delta + (delta > 0 ? -1 : 1)) / delta);
    InferValue v;
    v.elem_type = data.elem_type;
    v.shape = {n};
    if (n <= kOnnxKeptValues) {
      std::vector<int64_t> values;
      for (int64_t k = 0; k < n; ++k) values.push_back(start + k * delta);
      v.ints = values;
    }
    out.push_back(std::move(v));
    return Status::Ok();
  }
  if (op == "Pad") {
    std::vector<int64_t> pads = AttrInts(node, "pads");
    if (opset >= 11) {
      auto p = IntsOf(node, in, 1, "pads");
      if (!p.ok()) return p.status();
      pads = p.take();
    }
    std::vector<int64_t> shape = data.shape;
    if (in.size() > 3 && in[3]) return MovementRuleError(node, "padding only some axes is not counted yet");
    if (pads.size() != 2 * shape.size()) return MovementRuleError(node, "its pads do not match its input's rank");
    for (size_t i = 0; i < shape.size(); ++i) shape[i] += pads[i] + pads[i + shape.size()];
    out.push_back(Like(data, shape));
    return Status::Ok();
  }
  if (op == "DepthToSpace" || op == "SpaceToDepth") {
    const int64_t b = node.Int("blocksize", 1);
    if (data.shape.size() != 4 || b <= 0) return MovementRuleError(node, "it needs a 4-D input and a positive block size");
    std::vector<int64_t> s = data.shape;
    if (op == "DepthToSpace") s = {s[0], s[1] / (b * b), s[2] * b, s[3] * b};
    else s = {s[0], s[1] * b * b, s[2] / b, s[3] / b};
    out.push_back(Like(data, s));
    return Status::Ok();
  }
  return MovementRuleError(node, "no rule");
}

}  // namespace edgebench
