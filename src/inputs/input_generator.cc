#include "inputs/input_generator.h"

#include <cstring>
#include <random>

namespace edgebench {
namespace {

// IEEE 754 half from float (round to nearest even), for float16 inputs.
uint16_t FloatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent <= 0) return static_cast<uint16_t>(sign);  // underflow to zero (inputs are O(1))
  if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t half = sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(half);
}

}  // namespace

Result<std::vector<Tensor>> GenerateInputs(const Signature& signature,
                                           const std::vector<std::vector<int64_t>>& shapes,
                                           uint64_t seed) {
  if (shapes.size() != signature.inputs.size()) {
    return Status::Error("internal: " + std::to_string(shapes.size()) + " shapes for " +
                         std::to_string(signature.inputs.size()) + " inputs");
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int64_t> integer(0, 99);
  std::vector<Tensor> tensors;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const TensorSpec& spec = signature.inputs[i];
    Tensor t;
    t.name = spec.name;
    t.dtype = spec.dtype;
    t.shape = shapes[i];
    const int64_t n = t.element_count();
    const size_t width = DTypeSize(spec.dtype);
    if (width == 0) {
      return Status::Error("input '" + spec.name + "' has a data type edgebench cannot generate (" +
                           DTypeName(spec.dtype) + ")");
    }
    t.data.resize(static_cast<size_t>(n) * width);
    for (int64_t k = 0; k < n; ++k) {
      std::byte* at = t.data.data() + static_cast<size_t>(k) * width;
      switch (spec.dtype) {
        case DType::kFloat32: { const float v = real(rng); std::memcpy(at, &v, 4); break; }
        case DType::kFloat16: { const uint16_t v = FloatToHalf(real(rng)); std::memcpy(at, &v, 2); break; }
        case DType::kInt8: { const auto v = static_cast<int8_t>(integer(rng)); std::memcpy(at, &v, 1); break; }
        case DType::kUInt8: { const auto v = static_cast<uint8_t>(integer(rng)); std::memcpy(at, &v, 1); break; }
        case DType::kInt32: { const auto v = static_cast<int32_t>(integer(rng)); std::memcpy(at, &v, 4); break; }
        case DType::kInt64: { const int64_t v = integer(rng); std::memcpy(at, &v, 8); break; }
        case DType::kBool: { const auto v = static_cast<uint8_t>(integer(rng) % 2); std::memcpy(at, &v, 1); break; }
        case DType::kUnknown: break;
      }
    }
    tensors.push_back(std::move(t));
  }
  return tensors;
}

}  // namespace edgebench
