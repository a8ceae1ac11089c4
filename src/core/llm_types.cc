#include "core/llm_types.h"

namespace edgebench {

std::vector<int64_t> LlmRequestTiming::tpot_gaps_ns() const {
  std::vector<int64_t> gaps;
  int64_t previous = first_token_ns;
  for (int64_t t : token_ns) {
    gaps.push_back(t - previous);
    previous = t;
  }
  return gaps;
}

}  // namespace edgebench
