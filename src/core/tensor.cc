#include "core/tensor.h"

#include <charconv>
#include <sstream>

namespace edgebench {

std::string DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return "float32";
    case DType::kFloat16: return "float16";
    case DType::kInt8: return "int8";
    case DType::kUInt8: return "uint8";
    case DType::kInt32: return "int32";
    case DType::kInt64: return "int64";
    case DType::kBool: return "bool";
    case DType::kUnknown: break;
  }
  return "unknown";
}

size_t DTypeSize(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return 4;
    case DType::kFloat16: return 2;
    case DType::kInt8: return 1;
    case DType::kUInt8: return 1;
    case DType::kInt32: return 4;
    case DType::kInt64: return 8;
    case DType::kBool: return 1;
    case DType::kUnknown: break;
  }
  return 0;
}

std::string ShapeToString(const std::vector<Dim>& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out << 'x';
    if (shape[i].fixed()) {
      out << shape[i].size;
    } else {
      out << shape[i].symbol;
    }
  }
  out << ']';
  return out.str();
}

std::string ShapeToString(const std::vector<int64_t>& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out << 'x';
    out << shape[i];
  }
  out << ']';
  return out.str();
}

Status ParseDimBinding(const std::string& text, ShapeBindings& bindings) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    return Status::Error("bad --dim '" + text + "': expected NAME=VALUE, for example batch=4");
  }
  const std::string name = text.substr(0, eq);
  const std::string value_text = text.substr(eq + 1);
  int64_t value = 0;
  const auto [end, ec] =
      std::from_chars(value_text.data(), value_text.data() + value_text.size(), value);
  if (ec != std::errc() || end != value_text.data() + value_text.size() || value <= 0) {
    return Status::Error("bad --dim '" + text + "': the value must be a positive integer");
  }
  bindings[name] = value;
  return Status::Ok();
}

Result<std::vector<std::vector<int64_t>>> ResolveInputShapes(const Signature& signature,
                                                             const ShapeBindings& bindings,
                                                             std::vector<std::string>* defaulted) {
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::string> unbound;
  for (const TensorSpec& input : signature.inputs) {
    std::vector<int64_t> shape;
    for (size_t axis = 0; axis < input.shape.size(); ++axis) {
      const Dim& dim = input.shape[axis];
      if (dim.fixed()) {
        shape.push_back(dim.size);
        continue;
      }
      const std::string by_axis = input.name + "." + std::to_string(axis);
      auto it = bindings.find(by_axis);
      if (it == bindings.end() && dim.symbol != "?") it = bindings.find(dim.symbol);
      if (it == bindings.end()) it = bindings.find("*");
      if (it == bindings.end() && defaulted) {
        defaulted->push_back((dim.symbol != "?" ? "'" + dim.symbol + "' (" + by_axis + ")" : by_axis) + "=1");
        shape.push_back(1);
      } else if (it == bindings.end()) {
        unbound.push_back(dim.symbol != "?"
                              ? "'" + dim.symbol + "' (input '" + input.name + "' axis " +
                                    std::to_string(axis) + ")"
                              : "input '" + input.name + "' axis " + std::to_string(axis) +
                                    " (unnamed; bind it as " + by_axis + "=N)");
        shape.push_back(-1);
      } else {
        shape.push_back(it->second);
      }
    }
    shapes.push_back(std::move(shape));
  }
  if (!unbound.empty()) {
    std::string message = "unbound symbolic dimension" +
                          std::string(unbound.size() > 1 ? "s: " : ": ");
    for (size_t i = 0; i < unbound.size(); ++i) message += (i ? ", " : "") + unbound[i];
    message += ". Bind each with --dim NAME=VALUE (or all remaining ones with --dim '*=VALUE')";
    return Status::Error(message);
  }
  return shapes;
}

Status CheckBindingsUsed(const Signature& signature, const ShapeBindings& given) {
  std::vector<std::string> unused;
  for (const auto& [name, value] : given) {
    if (name == "*") continue;
    bool used = false;
    for (const TensorSpec& input : signature.inputs) {
      for (size_t axis = 0; axis < input.shape.size() && !used; ++axis) {
        const Dim& dim = input.shape[axis];
        used = !dim.fixed() && (dim.symbol == name || input.name + "." + std::to_string(axis) == name);
      }
    }
    if (!used) unused.push_back(name + "=" + std::to_string(value));
  }
  if (unused.empty()) return Status::Ok();
  std::string message = "--dim " + unused.front();
  for (size_t i = 1; i < unused.size(); ++i) message += ", --dim " + unused[i];
  message += " named no symbolic dimension of this model, so the shape asked for would not be the one measured. "
             "Its inputs: ";
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    message += (i ? ", " : "") + signature.inputs[i].name + " " + ShapeToString(signature.inputs[i].shape);
  }
  return Status::Error(message + " (bind a symbol by name, an unnamed axis as INPUT.AXIS=N)");
}

Result<std::pair<int64_t, int64_t>> CheckedSize(const std::vector<int64_t>& shape, DType dtype,
                                                 int64_t max_dim, const std::string& what) {
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d < 0 || d > max_dim) {
      return Status::Error(what + " " + ShapeToString(shape) + ": dimension " + std::to_string(d) +
                           " is outside the runtime's range (0 to " + std::to_string(max_dim) + ")");
    }
    if (__builtin_mul_overflow(elements, d, &elements)) {
      return Status::Error(what + " " + ShapeToString(shape) + " has more elements than 64 bits can count");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(elements, static_cast<int64_t>(DTypeSize(dtype)), &bytes)) {
    return Status::Error(what + " " + ShapeToString(shape) + " needs more bytes than 64 bits can count");
  }
  return std::make_pair(elements, bytes);
}

int64_t ElementCount(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t Tensor::element_count() const { return ElementCount(shape); }

}  // namespace edgebench
