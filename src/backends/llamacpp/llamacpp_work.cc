#include "backends/llamacpp/llamacpp_work.h"

#include <gguf.h>
#include <llama.h>

#include <algorithm>
#include <memory>

namespace edgebench {
namespace {

struct GgufFree {
  void operator()(gguf_context* context) const { gguf_free(context); }
};

// An unsigned integer key of the file, 0 when absent or of another type.
int64_t UintKey(const gguf_context* context, const std::string& key) {
  const int64_t id = gguf_find_key(context, key.c_str());
  if (id < 0) return 0;
  switch (gguf_get_kv_type(context, id)) {
    case GGUF_TYPE_UINT32: return gguf_get_val_u32(context, id);
    case GGUF_TYPE_INT32: return gguf_get_val_i32(context, id);
    case GGUF_TYPE_UINT16: return gguf_get_val_u16(context, id);
    case GGUF_TYPE_UINT64: return static_cast<int64_t>(gguf_get_val_u64(context, id));
    default: return 0;
  }
}

}  // namespace

Result<LlmWork> ReadLlmWork(const std::string& path, const llama_model* model, int64_t kv_bytes_per_position) {
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  std::unique_ptr<gguf_context, GgufFree> context(gguf_init_from_file(path.c_str(), params));
  if (!context) return Status::Error("ggml's GGUF reader cannot read the tensor table of " + path);
  if (UintKey(context.get(), "split.count") > 1) {
    return Status::Error(path + " is one part of a split model; its tensors are not all in this file");
  }
  std::string architecture;
  if (const int64_t id = gguf_find_key(context.get(), "general.architecture");
      id >= 0 && gguf_get_kv_type(context.get(), id) == GGUF_TYPE_STRING) {
    architecture = gguf_get_val_str(context.get(), id);
  }
  std::vector<LlmTensor> tensors;
  for (int64_t i = 0; i < gguf_get_n_tensors(context.get()); ++i) {
    const int64_t* ne = gguf_get_tensor_ne(context.get(), i);
    LlmTensor t;
    t.name = gguf_get_tensor_name(context.get(), i);
    t.bytes = static_cast<int64_t>(gguf_get_tensor_size(context.get(), i));
    t.elements = 1;
    for (int d = 0; d < GGML_MAX_DIMS; ++d) t.elements *= ne[d];
    t.rows = ne[0] > 0 ? t.elements / ne[0] : 1;
    tensors.push_back(std::move(t));
  }
  LlmShape shape;
  shape.layers = llama_model_n_layer(model);
  shape.heads = std::max(1, llama_model_n_head(model));
  shape.head_dim = llama_model_n_embd(model) / shape.heads;
  shape.experts = UintKey(context.get(), architecture + ".expert_count");
  shape.experts_used = UintKey(context.get(), architecture + ".expert_used_count");
  return CountLlmWork(tensors, shape, kv_bytes_per_position);
}

}  // namespace edgebench
