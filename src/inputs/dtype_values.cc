#include "inputs/dtype_values.h"

#include <cmath>
#include <cstring>

namespace edgebench {

bool IsIntegral(DType dtype) {
  return dtype == DType::kInt8 || dtype == DType::kUInt8 || dtype == DType::kInt32 ||
         dtype == DType::kInt64 || dtype == DType::kBool;
}

// The values an integer dtype holds.
std::pair<int64_t, int64_t> IntegerLimits(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return {-128, 127};
    case DType::kUInt8: return {0, 255};
    case DType::kInt32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::kBool: return {0, 1};
    default: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

// Writes `value` (already checked to fit) as one element of an integer dtype.
void StoreInteger(int64_t value, DType dtype, std::byte* at) {
  switch (dtype) {
    case DType::kInt8: {
      const auto v = static_cast<int8_t>(value);
      std::memcpy(at, &v, 1);
      break;
    }
    case DType::kInt32: {
      const auto v = static_cast<int32_t>(value);
      std::memcpy(at, &v, 4);
      break;
    }
    case DType::kInt64: std::memcpy(at, &value, 8); break;
    default: {  // uint8, bool
      const auto v = static_cast<uint8_t>(value);
      std::memcpy(at, &v, 1);
      break;
    }
  }
}

constexpr double kFloat16Max = 65504.0;

double FloatLimit(DType dtype) {
  return dtype == DType::kFloat16 ? kFloat16Max : std::numeric_limits<float>::max();
}

// IEEE 754 binary16 from double, round to nearest even, with subnormals (a fixed value such as
// 1e-6 must not silently become 0).
uint16_t HalfFromDouble(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000u : 0u;
  double magnitude = std::fabs(value);
  if (std::isnan(value)) return 0x7e00u;
  if (magnitude >= 65520.0) return sign | 0x7c00u;  // rounds past the largest half
  int exponent = 0;
  const double fraction = std::frexp(magnitude, &exponent);  // magnitude = fraction * 2^exponent
  if (magnitude == 0) return sign;
  // Normal halves have exponent - 1 in [-14, 15]; below that, a fixed step of 2^-24.
  const int unbiased = exponent - 1;
  if (unbiased < -14) {
    const double steps = std::nearbyint(magnitude * std::ldexp(1.0, 24));  // ties to even
    return sign | static_cast<uint16_t>(steps);  // 1024 steps is the smallest normal: still right
  }
  double mantissa = std::nearbyint((fraction * 2 - 1) * 1024);  // 10 bits, ties to even
  int biased = unbiased + 15;
  if (mantissa == 1024) {
    mantissa = 0;
    ++biased;
  }
  if (biased >= 31) return sign | 0x7c00u;
  return sign | static_cast<uint16_t>(biased << 10) | static_cast<uint16_t>(mantissa);
}

double HalfToDouble(uint16_t bits) {
  const double sign = (bits & 0x8000u) ? -1.0 : 1.0;
  const int biased = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (biased == 0) return sign * std::ldexp(mantissa, -24);
  if (biased == 31) return mantissa ? std::nan("") : sign * HUGE_VAL;
  return sign * std::ldexp(1024 + mantissa, biased - 25);
}

uint16_t HalfNextUp(uint16_t bits) {
  if (bits == 0x8000u) return 0x0001u;
  return (bits & 0x8000u) ? bits - 1 : bits + 1;
}
uint16_t HalfNextDown(uint16_t bits) {
  if (bits == 0x0000u) return 0x8001u;
  return (bits & 0x8000u) ? bits + 1 : bits - 1;
}

}  // namespace edgebench
