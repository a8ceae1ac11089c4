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

#include "core/llm_types.h"
#include "core/status.h"

namespace edgebench {

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
