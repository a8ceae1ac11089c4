// Plain data of the LLM scenario: what was asked (settings), what the session is (info) and when
// each token came (timings). Records and statistics depend on these, not on the runtime
// interface or the load generator.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

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

struct LlmSessionInfo {
  std::string model_description;  // e.g. "phi3 3B Q4_0"
  uint64_t model_parameters = 0;
  uint64_t model_bytes = 0;
  int32_t vocab_size = 0;
  int32_t context_size = 0;  // total, across sequences
  int32_t max_sequences = 1;
  int64_t kv_cache_bytes = 0;  // computed from the model's shape, context and cache type
  bool random_weights = false;  // the GGUF says so (edgebench's generated models do)
  std::map<std::string, std::string> effective_options;
  std::map<std::string, std::string> environment;  // e.g. the CPU backend variant llama.cpp loaded
  std::vector<std::string> notes;
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

}  // namespace edgebench
