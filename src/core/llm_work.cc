#include "core/llm_work.h"

#include <set>

namespace edgebench {

LlmWork CountLlmWork(const std::vector<LlmTensor>& tensors, const LlmShape& shape, int64_t kv_bytes_per_position) {
  static const std::set<std::string> kLookups = {"token_embd.weight", "position_embd.weight", "token_types.weight"};
  bool has_output = false;
  for (const LlmTensor& t : tensors) has_output = has_output || t.name == "output.weight";
  LlmWork work;
  work.kv_bytes_per_position = kv_bytes_per_position;
  work.attention_flops_per_position = 4 * shape.layers * shape.heads * shape.head_dim;
  int64_t expert_tensors = 0;
  int64_t quantized_elements = 0, wide_elements = 0;  // matrix weights below 16 bits, and the rest
  for (const LlmTensor& t : tensors) {
    work.tensor_bytes += t.bytes;
    const bool tied_output = t.name == "token_embd.weight" && !has_output;
    if (kLookups.count(t.name) && !tied_output) {
      work.weight_bytes_per_token += t.rows > 0 ? t.bytes / t.rows : t.bytes;
      continue;
    }
    const bool matrix = t.rows > 1;
    if (t.name.find("_exps") != std::string::npos && shape.experts > 0 && shape.experts_used > 0) {
      ++expert_tensors;
      work.weight_bytes_per_token += t.bytes * shape.experts_used / shape.experts;
      if (matrix) work.matmul_weights += t.elements * shape.experts_used / shape.experts;
      continue;
    }
    work.weight_bytes_per_token += t.bytes;
    if (matrix) work.matmul_weights += t.elements;
    if (matrix && (t.name == "output.weight" || tied_output)) work.output_weights += t.elements;
    if (matrix) (t.bytes < 2 * t.elements ? quantized_elements : wide_elements) += t.elements;
  }
  work.precision = quantized_elements > wide_elements ? "int8" : "fp32";
  if (!has_output) work.notes.push_back("no output.weight: the token embedding is the output layer and read whole");
  if (expert_tensors > 0) {
    work.approximate = true;
    work.notes.push_back(std::to_string(expert_tensors) + " expert tensors counted at " +
                         std::to_string(shape.experts_used) + " of " + std::to_string(shape.experts) +
                         " experts (the average; a step over several sequences may read more)");
  }
  return work;
}

}  // namespace edgebench
