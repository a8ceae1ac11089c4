#include "core/tensor_values.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace edgebench {
namespace {

double HalfToDouble(uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  double value;
  if (exponent == 0) {
    value = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    value = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else {
    value = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return sign ? -value : value;
}

template <typename T>
std::vector<double> Read(const Tensor& t) {
  const int64_t n = t.element_count();
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    T x;
    std::memcpy(&x, t.data.data() + i * sizeof(T), sizeof(T));
    v[static_cast<size_t>(i)] = static_cast<double>(x);
  }
  return v;
}

}  // namespace

Result<std::vector<double>> TensorValues(const Tensor& t) {
  if (t.data.size() != static_cast<size_t>(t.element_count()) * DTypeSize(t.dtype) || DTypeSize(t.dtype) == 0) {
    return Status::Error("output '" + t.name + "' has an unsupported type or inconsistent size");
  }
  switch (t.dtype) {
    case DType::kFloat32: return Read<float>(t);
    case DType::kInt8: return Read<int8_t>(t);
    case DType::kUInt8: return Read<uint8_t>(t);
    case DType::kInt32: return Read<int32_t>(t);
    case DType::kInt64: return Read<int64_t>(t);
    case DType::kBool: return Read<uint8_t>(t);
    case DType::kFloat16: {
      std::vector<double> v;
      for (double h : Read<uint16_t>(t)) v.push_back(HalfToDouble(static_cast<uint16_t>(h)));
      return v;
    }
    case DType::kUnknown: break;
  }
  return Status::Error("output '" + t.name + "' has an unsupported type");
}

}  // namespace edgebench
