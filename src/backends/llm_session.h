// Language-model sessions get their own kind: the harness must see every token to time the
// first one (TTFT) and the gaps between later ones (TPOT). A session prefills prompts and
// decodes one token per sequence per step; choosing the next token (greedy, argmax of the
// logits) is part of the step. It never times itself.
//
// One thread at a time. Sequences are numbered 0..n-1, n <= max_sequences().
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

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

class LlmSession {
 public:
  virtual ~LlmSession() = default;
  virtual LlmSessionInfo Info() const = 0;
  virtual Result<std::vector<int32_t>> Tokenize(const std::string& text) = 0;
  // Empties the KV state of every sequence.
  virtual Status ClearState() = 0;
  // Processes one prompt per sequence (sequence i gets prompts[i]) and returns each
  // sequence's first generated token.
  virtual Result<std::vector<int32_t>> Prefill(const std::vector<std::vector<int32_t>>& prompts) = 0;
  // Feeds each sequence's last token and returns each sequence's next token.
  virtual Result<std::vector<int32_t>> DecodeStep(const std::vector<int32_t>& last_tokens) = 0;
};

}  // namespace edgebench
