// llama.cpp backend (libllama / libggml from Debian forky). Target llamacpp:cpu with options
//   threads=N      decode and batch threads (default: all logical cores)
//   batch=N        logical batch, tokens per llama_decode call (default 2048, as llama-bench)
//   ubatch=N       physical micro-batch (default 512)
//   fa=on|off|auto flash attention (default auto)
//   kv=f16|q8_0|q4_0  K and V cache type (default f16; quantized V needs flash attention)
//   ctx=N          context size in tokens, across sequences (default: what the case needs)
// Language models only: Load() refuses; LoadLlm() gives an LlmSession.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeLlamaCppBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeLlamaCppBackend();

}  // namespace edgebench
