// The LLM scenario: for one prompt length x generation length, repeated requests, each from an
// empty KV state, timed token by token by the harness.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/llm_session.h"
#include "core/llm_types.h"
#include "load/observer.h"

namespace edgebench {

struct LlmSamples {
  std::vector<LlmRequestTiming> warmup;
  std::vector<LlmRequestTiming> measured;
  std::string prompt_source;  // "seeded token ids (seed N)" or "text through the model's tokenizer"
  int64_t prompt_tokens = 0;  // as run
  Status error;
  std::string failed_stage;
};

// Runs warmup then measured requests. Every request clears the KV state first (outside the
// timed span), then prefills and decodes `gen_tokens - 1` steps. `now` is the clock (tests
// inject a fake one).
LlmSamples RunLlmScenario(LlmSession& session, const LlmSettings& settings,
                          const std::function<int64_t()>& now, RunObserver* observer = nullptr);

// Seeded prompt token ids in [0, vocab_size), one prompt per sequence.
std::vector<std::vector<int32_t>> SeededPrompts(int64_t sequences, int64_t tokens, int32_t vocab_size,
                                                uint64_t seed);

}  // namespace edgebench
