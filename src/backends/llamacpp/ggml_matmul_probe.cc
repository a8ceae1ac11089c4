#include "backends/llamacpp/ggml_matmul_probe.h"

#include <cstring>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml.h"

#include "core/filler_values.h"

namespace edgebench {
namespace {

class GgmlMatMulSession : public Session {
 public:
  ~GgmlMatMulSession() override {
    if (buffer_) ggml_backend_buffer_free(buffer_);
    if (weights_buffer_) ggml_backend_buffer_free(weights_buffer_);
    if (backend_) ggml_backend_free(backend_);
    if (weights_context_) ggml_free(weights_context_);
    if (context_) ggml_free(context_);
  }

  Status Init(int64_t size, bool int8, int threads) {
    size_ = size;
    int8_ = int8;
    threads_ = threads;
    ggml_init_params params{};
    params.mem_size = ggml_tensor_overhead() * 8 + ggml_graph_overhead();
    params.no_alloc = true;  // the tensors live in the backend's buffer
    context_ = ggml_init(params);
    if (!context_) return Status::Error("ggml could not create a context for the probe");
    weights_context_ = ggml_init(params);
    if (!weights_context_) return Status::Error("ggml could not create a context for the probe");
    a_ = ggml_new_tensor_2d(context_, GGML_TYPE_F32, size, size);
    b_ = ggml_new_tensor_2d(weights_context_, int8 ? GGML_TYPE_Q8_0 : GGML_TYPE_F32, size, size);
    y_ = ggml_mul_mat(context_, b_, a_);  // [size, size]: each row of A against each row of B
    graph_ = ggml_new_graph(context_);
    ggml_build_forward_expand(graph_, y_);
    backend_ = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr);
    if (!backend_) return Status::Error("ggml found no CPU backend to run the probe on");
    ggml_backend_dev_t device = ggml_backend_get_device(backend_);
    ggml_backend_reg_t reg = device ? ggml_backend_dev_backend_reg(device) : nullptr;
    auto set_threads = reg ? reinterpret_cast<ggml_backend_set_n_threads_t>(
                                 ggml_backend_reg_get_proc_address(reg, "ggml_backend_set_n_threads"))
                           : nullptr;
    if (!set_threads) return Status::Error("ggml's CPU backend does not take a thread count");
    set_threads(backend_, threads);
    // The weights go where llama.cpp puts a model's: the first of the CPU device's extra buffer
    // types that takes this product (weights repacked into interleaved blocks for its kernels),
    // else the plain CPU buffer.
    ggml_backend_buffer_type_t weights_type = ggml_backend_get_default_buffer_type(backend_);
    auto extra_types = reinterpret_cast<ggml_backend_dev_get_extra_bufts_t>(
        ggml_backend_reg_get_proc_address(reg, "ggml_backend_dev_get_extra_bufts"));
    for (ggml_backend_buffer_type_t* type = extra_types ? extra_types(device) : nullptr; type && *type; ++type) {
      ggml_backend_buffer_t probe = ggml_backend_buft_alloc_buffer(*type, 0);
      if (!probe) continue;
      b_->buffer = probe;
      const bool takes = ggml_backend_dev_supports_op(device, y_);
      b_->buffer = nullptr;
      ggml_backend_buffer_free(probe);
      if (takes) {
        weights_type = *type;
        break;
      }
    }
    weights_buffer_name_ = ggml_backend_buft_name(weights_type);
    weights_buffer_ = ggml_backend_alloc_ctx_tensors_from_buft(weights_context_, weights_type);
    buffer_ = ggml_backend_alloc_ctx_tensors(context_, backend_);
    if (!buffer_ || !weights_buffer_) {
      return Status::Error("ggml could not allocate the probe's " + std::to_string(size) + "x" + std::to_string(size) +
                           " matrices");
    }
    // Deterministic weights in [-1, 1), quantized to Q8_0 the way llama.cpp's quantizer does.
    std::vector<float> weights(static_cast<size_t>(size * size));
    FillFloats(weights.data(), weights.size(), 7);
    if (int8) {
      std::vector<uint8_t> packed(ggml_nbytes(b_));
      ggml_quantize_chunk(GGML_TYPE_Q8_0, weights.data(), packed.data(), 0, size, size, nullptr);
      ggml_backend_tensor_set(b_, packed.data(), 0, packed.size());
    } else {
      ggml_backend_tensor_set(b_, weights.data(), 0, ggml_nbytes(b_));
    }
    signature_.inputs = {{"a", DType::kFloat32, {Dim::Fixed(size), Dim::Fixed(size)}}};
    signature_.outputs = {{"y", DType::kFloat32, {Dim::Fixed(size), Dim::Fixed(size)}}};
    return Status::Ok();
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& shapes) override {
    if (shapes.size() != 1 || shapes[0] != std::vector<int64_t>{size_, size_}) {
      return Status::Error("the ggml probe takes one input of [" + std::to_string(size_) + ", " +
                           std::to_string(size_) + "]");
    }
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (inputs.size() != 1 || inputs[0].dtype != DType::kFloat32 || inputs[0].data.size() != ggml_nbytes(a_)) {
      return Status::Error("the ggml probe takes one float32 input of [" + std::to_string(size_) + ", " +
                           std::to_string(size_) + "]");
    }
    ggml_backend_tensor_set(a_, inputs[0].data.data(), 0, ggml_nbytes(a_));
    if (ggml_backend_graph_compute(backend_, graph_) != GGML_STATUS_SUCCESS) {
      return Status::Error("ggml failed to compute the probe's product");
    }
    outputs.resize(1);
    Tensor& y = outputs[0];
    y.name = "y";
    y.dtype = DType::kFloat32;
    y.shape = {size_, size_};
    y.data.resize(ggml_nbytes(y_));
    ggml_backend_tensor_get(y_, y.data.data(), 0, y.data.size());
    return Status::Ok();
  }

  Placement GetPlacement() const override {
    Placement p;
    p.known = true;
    p.nodes_by_device["cpu"] = 1;
    p.devices_used = {"cpu"};
    return p;
  }

  std::vector<std::string> notes() const override {
    return {std::string("ggml_mul_mat ") + (int8_ ? "Q8_0 x Q8_0" : "float32") + " (weights in " +
            weights_buffer_name_ + ")"};
  }

  std::map<std::string, std::string> effective_options() const override {
    return {{"threads", std::to_string(threads_)}};
  }

 private:
  int64_t size_ = 0;
  bool int8_ = false;
  int threads_ = 1;
  Signature signature_;
  ggml_context* context_ = nullptr;          // the input, the product and its graph
  ggml_context* weights_context_ = nullptr;  // the weights, in their own buffer type
  ggml_backend_buffer_t weights_buffer_ = nullptr;
  std::string weights_buffer_name_;
  ggml_tensor* a_ = nullptr;
  ggml_tensor* b_ = nullptr;
  ggml_tensor* y_ = nullptr;
  ggml_cgraph* graph_ = nullptr;
  ggml_backend_t backend_ = nullptr;
  ggml_backend_buffer_t buffer_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<Session>> LoadGgmlMatMulProbe(int64_t size, bool int8, int threads) {
  if (size <= 0 || size % 32 != 0) {
    return Status::Error("the ggml probe's size must be a positive multiple of 32 (Q8_0 blocks), not " +
                         std::to_string(size));
  }
  auto session = std::make_unique<GgmlMatMulSession>();
  if (Status s = session->Init(size, int8, threads); !s.ok()) return s;
  return std::unique_ptr<Session>(std::move(session));
}

}  // namespace edgebench
