// Values of a tensor element type: the range an integer type holds, writing one integer element,
// the largest finite float, and IEEE 754 binary16 conversions with subnormals and neighbours
// (for fixed values and ranges of float16 inputs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/tensor.h"

namespace edgebench {

bool IsIntegral(DType dtype);  // integer types and bool
// The values an integer dtype holds.
std::pair<int64_t, int64_t> IntegerLimits(DType dtype);
// Writes `value` (already checked to fit) as one element of an integer dtype.
void StoreInteger(int64_t value, DType dtype, std::byte* at);
// The largest finite magnitude of a float dtype.
double FloatLimit(DType dtype);
// Round to nearest even, with subnormals (a fixed value such as 1e-6 must not become 0).
uint16_t HalfFromDouble(double value);
double HalfToDouble(uint16_t bits);
// The next representable half above / below (for keeping a range's values below HI).
uint16_t HalfNextUp(uint16_t bits);
uint16_t HalfNextDown(uint16_t bits);

}  // namespace edgebench
