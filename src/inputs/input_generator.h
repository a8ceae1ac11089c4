// Inputs made from a model's signature: seeded, so every target gets the same bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

// Floats: uniform in [-1, 1). Integers: uniform in [0, 100) (token-id-like, valid as indices
// for most embedding tables). Bools: fair coin. The same seed gives the same tensors.
Result<std::vector<Tensor>> GenerateInputs(const Signature& signature,
                                           const std::vector<std::vector<int64_t>>& shapes,
                                           uint64_t seed);

}  // namespace edgebench
