// The compute probe's product (diagnose/compute_peak_probe.h) in llama.cpp's own kernels: a GGUF
// file holds a language model, not a bare matrix product, so the llamacpp plugin builds the
// product as a ggml graph on ggml's CPU backend, as llama.cpp's matrix layers do: Y = A x B^T,
// A the input "a" [size, size] float32, B constant weights in F32 or, for int8, Q8_0 (8-bit
// blocks of 32 with a scale; ggml quantizes A to Q8_0 too and multiplies int8 by int8).
#pragma once

#include <cstdint>
#include <memory>

#include "backends/backend.h"

namespace edgebench {

// `threads`: ggml's CPU threads. Errors: size not a multiple of 32 (Q8_0's block), no CPU
// backend, allocation failures.
Result<std::unique_ptr<Session>> LoadGgmlMatMulProbe(int64_t size, bool int8, int threads);

}  // namespace edgebench
