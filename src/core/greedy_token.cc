#include "core/greedy_token.h"

#include <limits>

namespace edgebench {

int32_t GreedyToken(std::span<const float> logits) {
  const float* x = logits.data();
  const size_t n = logits.size();
  constexpr size_t kLanes = 16;
  constexpr float kLowest = -std::numeric_limits<float>::infinity();
  // First the largest value, lane by lane (a NaN fails every comparison, so it is skipped)...
  float lane[kLanes];
  for (float& l : lane) l = kLowest;
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) lane[j] = x[i + j] > lane[j] ? x[i + j] : lane[j];
  }
  float best = kLowest;
  for (; i < n; ++i) best = x[i] > best ? x[i] : best;
  for (float l : lane) best = l > best ? l : best;
  // ...then the first index that holds it, so ties go to the lowest token id.
  for (size_t k = 0; k < n; ++k) {
    if (x[k] == best) return static_cast<int32_t>(k);
  }
  return 0;
}

}  // namespace edgebench
