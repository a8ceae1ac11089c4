// Converting 4-D tensors between NCHW and NHWC, so the same input reaches runtimes that
// declare different layouts, and their outputs can be compared.
#pragma once

#include "core/tensor.h"

namespace edgebench {

// NCHW [n,c,h,w] -> NHWC [n,h,w,c] when to_nhwc, else the reverse. Tensors that are not 4-D
// are returned unchanged.
Tensor Transpose4D(const Tensor& tensor, bool to_nhwc);

}  // namespace edgebench
