// A vision projector beside a llama.cpp text model, through llama.cpp's multimodal library
// (libmtmd, mtmd.h): images decoded, resized and sliced, tokenized with the text into chunks
// (mtmd_tokenize), each image chunk encoded by the vision tower (mtmd_encode_chunk) and its
// embeddings decoded into a sequence (mtmd_helper_decode_image_chunk). The stages are separate
// calls so the harness times each one; mtmd_helper_eval_chunks would hide them.
//
// One thread at a time, like the session that owns it.
#pragma once

#include <llama.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/llamacpp/llamacpp_log.h"
#include "backends/llm_session.h"
#include "core/status.h"

namespace edgebench {

class LlamaCppVision {
 public:
  // Loads `mmproj` for `model`, the vision tower on the CPU with `threads` threads. `log` is the
  // process's llama.cpp logger (libmtmd logs through it too); its errors explain a failure.
  static Result<std::unique_ptr<LlamaCppVision>> Load(const std::string& mmproj, const llama_model* model,
                                                      int threads, LlamaLog& log);
  ~LlamaCppVision();
  LlamaCppVision(const LlamaCppVision&) = delete;
  LlamaCppVision& operator=(const LlamaCppVision&) = delete;

  // What the record says: the file, and how many image tokens its first image gave (after Prepare).
  std::string description() const { return description_; }
  // The backend the vision tower runs on, as libmtmd logged it ("CPU").
  std::string device() const { return device_; }

  // Reads and decodes `image_files`, tokenizes `text` around them: each marker in `text` takes the
  // next image; without markers the images come first, then the text.
  Result<std::unique_ptr<LlmMediaPrompt>> Prepare(const std::vector<std::string>& image_files,
                                                  const std::string& text);
  Status Encode(LlmMediaPrompt& prompt, size_t chunk);
  // Decodes image chunk `chunk`, just encoded, into `sequence` from position `position`; returns
  // the position after it.
  Result<int32_t> DecodeImage(LlmMediaPrompt& prompt, size_t chunk, llama_context* context, int32_t position,
                              int32_t sequence, int32_t batch);
  // A text chunk's tokens.
  Result<std::vector<llama_token>> TextTokens(const LlmMediaPrompt& prompt, size_t chunk) const;

 private:
  struct State;
  explicit LlamaCppVision(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  std::string description_;
  std::string device_;
};

}  // namespace edgebench
