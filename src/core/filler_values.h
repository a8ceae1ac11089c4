// Deterministic filler for the models and inputs edgebench generates itself (probe products,
// random-weight test models): a linear congruential sequence, values rather than statistics, so
// a generated file or input is the same on every run and every machine. `state` starts the
// sequence; each value advances it once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace edgebench {

// `count` floats in [-1, 1).
void FillFloats(float* out, size_t count, uint32_t state);
// `count` bytes, each the top byte of the next state.
void FillBytes(void* out, size_t count, uint32_t state);

}  // namespace edgebench
