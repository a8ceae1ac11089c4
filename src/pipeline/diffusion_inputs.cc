#include "pipeline/diffusion_inputs.h"

#include <cmath>
#include <cstring>
#include <numbers>

namespace edgebench {

uint64_t SplitMix64::Next() {
  state_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SplitMix64::Uniform() { return static_cast<double>((Next() >> 11) + 1) * (1.0 / 9007199254740992.0); }

Tensor SeededPromptTokens(uint64_t seed) {
  SplitMix64 stream(seed ^ 0x746F6B656E73ull);  // "tokens"
  std::vector<int64_t> ids(static_cast<size_t>(2 * kClipTextLength), kClipEos);
  ids[0] = kClipBos;  // row 0: BOS EOS EOS ...: the empty prompt
  int64_t* cond = ids.data() + kClipTextLength;
  cond[0] = kClipBos;
  for (int i = 1; i <= kDiffusionPromptTokens; ++i) cond[i] = static_cast<int64_t>(stream.Next() % kClipBos);
  Tensor t{"input_ids", DType::kInt64, {2, kClipTextLength}, {}};
  t.data.resize(ids.size() * sizeof(int64_t));
  std::memcpy(t.data.data(), ids.data(), t.data.size());
  return t;
}

Tensor SeededLatents(uint64_t seed, const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<float> values(static_cast<size_t>(count));
  SplitMix64 stream(seed);
  for (int64_t i = 0; i < count; i += 2) {
    const double u1 = stream.Uniform(), u2 = stream.Uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    values[static_cast<size_t>(i)] = static_cast<float>(radius * std::cos(2.0 * std::numbers::pi * u2));
    if (i + 1 < count) values[static_cast<size_t>(i + 1)] = static_cast<float>(radius * std::sin(2.0 * std::numbers::pi * u2));
  }
  Tensor t{"latents", DType::kFloat32, shape, {}};
  t.data.resize(values.size() * sizeof(float));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

}  // namespace edgebench
