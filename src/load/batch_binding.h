// Offline's --batch: the batch dimension is the first axis of every input that has one.
#pragma once

#include <cstdint>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

// `bindings` with each input's first axis bound to `batch` (as INPUT.0). An error when an input's
// first axis is fixed at another size (the model cannot take the batch: export it with a
// dynamic batch, or leave --batch unset), when --dim already binds it to another value, or when
// no input has an axis to batch.
Result<ShapeBindings> BindBatch(const Signature& signature, int64_t batch, ShapeBindings bindings);

}  // namespace edgebench
