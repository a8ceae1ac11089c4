// The work a language model's token costs, counted from the GGUF's tensors (docs/roofline.md):
// the bytes a decode step must read (the weights a token passes through, at their stored size,
// quantized or not) and the operations of a prefilled token. With the KV cache's bytes per
// position, these give the roofline: a decode step cannot take less than its bytes over the
// memory bandwidth.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace edgebench {

// One tensor as the GGUF stores it.
struct LlmTensor {
  std::string name;       // "blk.0.attn_q.weight"
  int64_t bytes = 0;      // as stored (a quantized type's blocks included)
  int64_t elements = 0;
  int64_t rows = 1;       // elements / the first dimension (ne[0])
};

// The model's shape, as llama.cpp reports it.
struct LlmShape {
  int64_t layers = 0;
  int64_t heads = 0;
  int64_t head_dim = 0;      // query and key width per head
  int64_t experts = 0;       // mixture of experts: experts per layer (0: dense)
  int64_t experts_used = 0;  // experts each token goes through
};

struct LlmWork {
  int64_t tensor_bytes = 0;            // every tensor, as stored
  int64_t weight_bytes_per_token = 0;  // what one decode step reads of them (see CountLlmWork)
  int64_t kv_bytes_per_position = 0;   // K and V of one position over every layer, at the cache's types
  int64_t matmul_weights = 0;          // elements of the matrices a token is multiplied by
  int64_t output_weights = 0;          // of them, the output layer's (output.weight, or a tied token table)
  int64_t attention_flops_per_position = 0;  // 4 x layers x heads x head_dim (QK^T and AV)
  bool approximate = false;            // mixture of experts: the experts used taken as average
  // The precision the matrix products run at, for the compute peak prefill is held to: "int8"
  // where most matrix weights are stored below 16 bits (ggml's quantized types, multiplied by
  // 8-bit-quantized activations), "fp32" otherwise (F32, F16, BF16); empty in older records.
  std::string precision;
  std::vector<std::string> notes;

  // Bytes a decode step reads: the weights once (shared by every sequence of the step) and each
  // sequence's KV cache at its depth (positions attended, the new one included).
  double DecodeStepBytes(double mean_depth, int64_t sequences) const {
    return static_cast<double>(weight_bytes_per_token) +
           static_cast<double>(sequences) * mean_depth * static_cast<double>(kv_bytes_per_position);
  }
  // Floating-point operations of one token at a depth: 2 per weight it is multiplied by, and
  // attention over `depth` positions.
  double TokenFlops(double depth) const {
    return 2.0 * static_cast<double>(matmul_weights) + depth * static_cast<double>(attention_flops_per_position);
  }
  // A prompt token's share of prefilling `prompt` tokens: llama.cpp computes logits for the last
  // token only, so the output layer is paid once per prompt, not once per token.
  double PrefillTokenFlops(double depth, double prompt) const {
    const double output = 2.0 * static_cast<double>(output_weights);
    return TokenFlops(depth) - output + (prompt > 0 ? output / prompt : output);
  }
};

// What a token reads and computes. An embedding table (token_embd, position_embd, token_types)
// is looked up: one row per token, unless the model has no output.weight and multiplies by the
// token table to get its logits (tied), then the whole of it. Every other tensor is read once
// per step; a mixture of experts' tensors (names with "_exps") count experts_used / experts of
// their bytes, and the count says it is approximate. `kv_bytes_per_position` is the backend's.
LlmWork CountLlmWork(const std::vector<LlmTensor>& tensors, const LlmShape& shape, int64_t kv_bytes_per_position);

}  // namespace edgebench
