// A GGUF language model's work per token (core/llm_work.h), from the file's tensor table read by
// ggml's GGUF reader (no tensor data is loaded) and the shape llama.cpp loaded.
#pragma once

#include <string>

#include "core/llm_work.h"
#include "core/status.h"

struct llama_model;

namespace edgebench {

// An error (the roofline then says why it is omitted) when the file's tensor table cannot be
// read or the model is split over several files.
Result<LlmWork> ReadLlmWork(const std::string& path, const llama_model* model, int64_t kv_bytes_per_position);

}  // namespace edgebench
