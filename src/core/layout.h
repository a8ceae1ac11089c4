// Converting 4-D tensors between NCHW and NHWC, so the same input reaches runtimes that
// declare different layouts, and their outputs can be compared.
#pragma once

#include <string>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

// The layout of a model's 4-D inputs and outputs; kAny: not declared, never converted.
enum class Layout { kAny, kNchw, kNhwc };
std::string LayoutName(Layout layout);  // "nchw", "nhwc", "any"
// "nchw" or "nhwc" (either case); "any" or empty: kAny. `context` names what the layout is for.
Result<Layout> ParseLayout(const std::string& text, const std::string& context);

// NCHW [n,c,h,w] -> NHWC [n,h,w,c] when to_nhwc, else the reverse. Tensors that are not 4-D
// are returned unchanged.
Tensor Transpose4D(const Tensor& tensor, bool to_nhwc);

}  // namespace edgebench
