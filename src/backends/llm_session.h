// Language-model sessions get their own kind: the harness must see every token to time the
// first one (TTFT) and the gaps between later ones (ITL). A session holds up to max_sequences()
// independent sequences in one KV cache; it prefills prompts into sequences and decodes one
// token for each of a set of sequences per step, so requests can join and leave the batch as
// they come and finish (continuous batching). Choosing the next token (greedy, argmax of the
// logits) is part of the step. It never times itself.
//
// One thread at a time. Sequences are numbered 0..n-1, n <= Info().max_sequences.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/llm_types.h"
#include "core/status.h"

namespace edgebench {

// A prompt for one sequence, appended after what the sequence already holds.
struct LlmSequencePrompt {
  int32_t sequence = 0;
  std::span<const int32_t> tokens;
};

// A sequence's last token, fed to a decode step.
struct LlmSequenceToken {
  int32_t sequence = 0;
  int32_t token = 0;
};

// A vision-language prompt the session prepared (images pre-processed, text tokenized): its
// chunks in the order they enter the context, text and images interleaved as the prompt puts
// them. Owned by the harness, fed back to the session chunk by chunk.
struct LlmMediaChunk {
  bool image = false;
  int64_t tokens = 0;  // tokens (for an image: embeddings) it puts in the context
};

class LlmMediaPrompt {
 public:
  virtual ~LlmMediaPrompt() = default;
  virtual const std::vector<LlmMediaChunk>& Chunks() const = 0;
};

class LlmSession {
 public:
  virtual ~LlmSession() = default;
  virtual LlmSessionInfo Info() const = 0;
  virtual Result<std::vector<int32_t>> Tokenize(const std::string& text) = 0;
  // Empties the KV state of every sequence.
  virtual Status ClearState() = 0;
  // Empties one sequence's KV state (its cells are free for the next prompt put there); the
  // other sequences keep theirs.
  virtual Status ClearSequence(int32_t sequence) = 0;
  // Processes the prompts (distinct sequences, together in as few runtime calls as the batch
  // size allows) and returns each one's first generated token, in the order given.
  virtual Result<std::vector<int32_t>> Prefill(const std::vector<LlmSequencePrompt>& prompts) = 0;
  // One decode step over the given sequences together: feeds each its last token and returns
  // each one's next token, in the order given.
  virtual Result<std::vector<int32_t>> DecodeStep(const std::vector<LlmSequenceToken>& last) = 0;
  // Optional, for comparing models token by token (edgebench drift): empties the KV state,
  // evaluates `tokens` in sequence 0 and returns the logits at every position, tokens.size()
  // rows of Info().vocab_size floats, row k being the distribution of the token after k. The
  // session needs room for tokens.size() tokens (LlmLoadHints). Leaves the state empty.
  virtual Result<std::vector<float>> EvaluateAllLogits(std::span<const int32_t> /*tokens*/) {
    return Status::Error("this backend gives no logits for every position of a prompt");
  }

  // Vision-language, when the session was loaded with a projector (LlmLoadHints::mmproj). The
  // harness times each call: pre-processing, then for every chunk in order, an image's encode
  // followed by its prefill, or a text chunk's prefill.
  //
  // Reads and decodes the images, resizes and slices them, tokenizes `text` around them (each
  // media marker in `text` takes the next image; without markers the images come first).
  virtual Result<std::unique_ptr<LlmMediaPrompt>> PrepareMedia(const std::vector<std::string>& /*image_files*/,
                                                               const std::string& /*text*/) {
    return Status::Error("this session has no vision projector");
  }
  // Runs the vision tower over image chunk `chunk`; the embeddings wait for PrefillMediaChunk.
  virtual Status EncodeImage(LlmMediaPrompt& /*prompt*/, size_t /*chunk*/) {
    return Status::Error("this session has no vision projector");
  }
  // Decodes chunk `chunk` (text tokens, or an encoded image's embeddings) into `sequence`, after
  // what it holds. For the prompt's last chunk, returns the first generated token; else -1.
  virtual Result<int32_t> PrefillMediaChunk(LlmMediaPrompt& /*prompt*/, size_t /*chunk*/, int32_t /*sequence*/) {
    return Status::Error("this session has no vision projector");
  }
};

}  // namespace edgebench
