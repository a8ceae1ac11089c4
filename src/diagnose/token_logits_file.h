// The reference model's logits at every position of every prompt, written by the reference's
// worker and read by each candidate's (as llama-perplexity's --kl-divergence-base file, but
// float32 as computed rather than 16-bit log-probabilities, so the reference is not rounded).
//
// Layout, little-endian as the host that wrote it (both sides run on one machine):
//   "EBTOKLOG" (8 bytes), uint32 version (1), uint32 vocab_size, uint32 prompt_count,
//   uint32 model_length, model (model_length bytes, UTF-8: what the reference was),
//   uint32 token_count[prompt_count], int32 tokens (every prompt's, in order),
//   float32 logits (every prompt's token_count x vocab_size, row-major, in order).
// The header alone fixes the file's size; a reader refuses a file of any other size.
#pragma once

#include <cstdint>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

struct TokenLogitsHeader {
  std::string model;  // what the reference is, for messages
  int32_t vocab_size = 0;
  std::vector<std::vector<int32_t>> prompts;  // each prompt's tokens
};

// The size in bytes a file with this header has.
uint64_t TokenLogitsFileSize(const TokenLogitsHeader& header);

class TokenLogitsWriter {
 public:
  // Writes the header; the prompts' logits follow with WritePrompt, in order.
  static Result<TokenLogitsWriter> Create(const std::string& path, TokenLogitsHeader header);
  // The next prompt's logits: its token count x vocab_size floats.
  Status WritePrompt(std::span<const float> logits);
  // After the last prompt: an error when prompts are missing or the data did not reach disk.
  Status Finish();

 private:
  std::string path_;
  TokenLogitsHeader header_;
  std::ofstream out_;
  size_t written_ = 0;
};

class TokenLogitsReader {
 public:
  // Reads and checks the header (magic, version, sizes) and the file's size.
  static Result<TokenLogitsReader> Open(const std::string& path);
  const TokenLogitsHeader& header() const { return header_; }
  // Prompt `index`'s logits: its token count x vocab_size floats.
  Result<std::vector<float>> ReadPrompt(size_t index);

 private:
  std::string path_;
  TokenLogitsHeader header_;
  std::ifstream in_;
  std::vector<uint64_t> logits_offsets_;  // where each prompt's logits start
};

}  // namespace edgebench
