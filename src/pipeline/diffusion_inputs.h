// A diffusion query's input, made from a seed: the prompt's tokens and the initial latents.
// No tokenizer files are available offline, so the prompt is a seeded token sequence of CLIP's
// length (77): row 0 the empty (unconditional) prompt, row 1 BOS, kDiffusionPromptTokens seeded
// token ids below BOS, EOS, padded with EOS as Stable Diffusion's tokenizer pads. The latents
// are standard normals from the same kind of stream. Every target gets the same bits:
// scripts/models/export_diffusion.py reproduces both exactly for its PyTorch reference.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace edgebench {

inline constexpr int64_t kClipTextLength = 77;
inline constexpr int64_t kClipBos = 49406;
inline constexpr int64_t kClipEos = 49407;
inline constexpr int kDiffusionPromptTokens = 12;

// splitmix64 (Steele et al.): a small stream that any language reproduces bit for bit.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  double Uniform();  // in (0, 1]: 53 bits

 private:
  uint64_t state_;
};

// int64 [2, 77]: "input_ids".
Tensor SeededPromptTokens(uint64_t seed);
// float32 standard normals of `shape` (Box-Muller in double, then rounded): "latents".
Tensor SeededLatents(uint64_t seed, const std::vector<int64_t>& shape);

}  // namespace edgebench
