// A tensor's values as doubles, whatever its element type: what comparisons (agreement, drift),
// post-processing (SSD decoding) and the runner's dumps read outputs through.
#pragma once

#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

// Values of a tensor as doubles (float32, float16, integer and bool tensors); an error names
// the tensor when its type is unsupported or its bytes do not match its shape.
Result<std::vector<double>> TensorValues(const Tensor& tensor);

}  // namespace edgebench
