// Tensors, their specifications and shapes as a model declares them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

enum class DType { kFloat32, kFloat16, kInt8, kUInt8, kInt32, kInt64, kBool, kUnknown };

std::string DTypeName(DType dtype);
size_t DTypeSize(DType dtype);  // bytes per element; 0 for kUnknown

// One dimension of a declared shape: a fixed size, or a named symbol bound at prepare time.
struct Dim {
  int64_t size = -1;   // >= 0 when fixed
  std::string symbol;  // non-empty when symbolic; "?" when the model gives no name

  static Dim Fixed(int64_t n) { return Dim{n, ""}; }
  static Dim Symbol(std::string name) { return Dim{-1, std::move(name)}; }
  bool fixed() const { return size >= 0; }
};

// How an integer tensor maps to real values, as its runtime declares it (TensorFlow Lite's
// affine quantization): value = scale * (q - zero_point), one scale for the whole tensor or one
// per index of `axis`. Empty scales: not quantized, or the runtime does not say.
struct TensorQuantization {
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int axis = 0;
  bool empty() const { return scales.empty(); }
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::kUnknown;
  std::vector<Dim> shape;
  // Of an int8/uint8 input or output a model quantizes itself. (Initialized here so that the
  // brace-initialized specs that omit it do not trip -Wmissing-field-initializers.)
  TensorQuantization quantization = {};
};

struct Signature {
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

std::string ShapeToString(const std::vector<Dim>& shape);
std::string ShapeToString(const std::vector<int64_t>& shape);

// Values for symbolic dimensions, by symbol name (`--dim batch=4`).
using ShapeBindings = std::map<std::string, int64_t>;

// Parses "name=value" into bindings; an error names the bad entry.
Status ParseDimBinding(const std::string& text, ShapeBindings& bindings);

// Resolves every input's shape. A symbolic dim is bound by "<input name>.<axis>" (for example
// `images.0=1`; the most specific binding wins), then by its name (`batch=4`), then by "*",
// which binds every dim left unbound (handy when artifacts name the same batch axis
// differently). A dim still unbound is an error naming every such dim, or, when `defaulted` is
// given, bound to 1 (as onnxruntime_perf_test does) and described in *defaulted.
Result<std::vector<std::vector<int64_t>>> ResolveInputShapes(const Signature& signature,
                                                             const ShapeBindings& bindings,
                                                             std::vector<std::string>* defaulted = nullptr);

// An error when a binding of `given` (as --dim wrote it) names no symbolic dimension of the
// signature: a model with a static batch "measured at batch 8" would run at its own batch.
// "*" is exempt (it binds whatever is left, possibly nothing). The error lists the model's
// inputs with their declared shapes.
Status CheckBindingsUsed(const Signature& signature, const ShapeBindings& given);

// The element count of `shape` and its byte size for `dtype`, or an error naming `what` when a
// dimension is negative or above `max_dim`, or the product or bytes overflow 64 bits.
Result<std::pair<int64_t, int64_t>> CheckedSize(const std::vector<int64_t>& shape, DType dtype,
                                                 int64_t max_dim, const std::string& what);

// A concrete tensor owning its bytes.
struct Tensor {
  std::string name;
  DType dtype = DType::kUnknown;
  std::vector<int64_t> shape;
  std::vector<std::byte> data;

  int64_t element_count() const;
  template <typename T>
  T* as() { return reinterpret_cast<T*>(data.data()); }
  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data.data()); }
};

int64_t ElementCount(const std::vector<int64_t>& shape);

}  // namespace edgebench
