// The LLM scenario: for one prompt length x generation length, repeated requests, each from an
// empty KV state, timed token by token by the harness.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/llm_session.h"

namespace edgebench {

struct LlmSettings {
  int64_t prompt_tokens = 128;
  int64_t gen_tokens = 64;       // tokens generated per sequence, the first one included
  int64_t repetitions = 5;       // measured requests
  int64_t warmup_requests = 1;   // reported apart
  int64_t sequences = 1;         // decoded together in one batch
  uint64_t seed = 0;
  std::string prompt_text;       // when set, the prompt is this text through the tokenizer
};

// One request's timestamps (ns, steady clock): start, first token, every later token.
struct LlmRequestTiming {
  int64_t start_ns = 0;
  int64_t first_token_ns = 0;
  std::vector<int64_t> token_ns;  // after each decode step

  int64_t ttft_ns() const { return first_token_ns - start_ns; }
  // Gaps between consecutive tokens after the first.
  std::vector<int64_t> tpot_gaps_ns() const;
};

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
                          const std::function<int64_t()>& now);

// Seeded prompt token ids in [0, vocab_size), one prompt per sequence.
std::vector<std::vector<int32_t>> SeededPrompts(int64_t sequences, int64_t tokens, int32_t vocab_size,
                                                uint64_t seed);

}  // namespace edgebench
