#include "backends/llamacpp/llamacpp_backend.h"

#include <ggml-backend.h>
#include <ggml-cpu.h>
#include <llama.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>
#include <tuple>

#include "backends/build_config.h"
#include "backends/llamacpp/ggml_matmul_probe.h"
#include "backends/llamacpp/llamacpp_log.h"
#include "backends/llamacpp/llamacpp_vision.h"
#include "backends/llamacpp/llamacpp_work.h"
#include "core/environment.h"
#include "core/strings.h"
#include "core/greedy_token.h"

namespace edgebench {
namespace {

struct ModelDeleter {
  void operator()(llama_model* m) const { llama_model_free(m); }
};
struct ContextDeleter {
  void operator()(llama_context* c) const { llama_free(c); }
};

// A persistent CPU thread pool attached to the context, as llama-bench and llama-cli do;
// without one ggml makes a pool per graph computation. ggml_threadpool_new lives in the CPU
// backend library that ggml loads at run time, so it is looked up through the registry.
class ThreadPool {
 public:
  ThreadPool() = default;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    if (pool_ && free_) free_(pool_);
  }
  bool Create(int threads) {
    ggml_backend_dev_t cpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    ggml_backend_reg_t reg = cpu ? ggml_backend_dev_backend_reg(cpu) : nullptr;
    if (!reg) return false;
    auto create = reinterpret_cast<ggml_threadpool_t (*)(ggml_threadpool_params*)>(
        ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_new"));
    free_ = reinterpret_cast<void (*)(ggml_threadpool_t)>(
        ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_free"));
    if (!create || !free_) return false;
    ggml_threadpool_params params = ggml_threadpool_params_default(threads);
    pool_ = create(&params);
    return pool_ != nullptr;
  }
  ggml_threadpool_t get() const { return pool_; }

 private:
  ggml_threadpool_t pool_ = nullptr;
  void (*free_)(ggml_threadpool_t) = nullptr;
};

int32_t Argmax(const float* logits, int32_t n) {
  return GreedyToken(std::span<const float>(logits, static_cast<size_t>(n)));
}

// RAII for llama_batch.
class Batch {
 public:
  Batch(int32_t capacity, int32_t sequences) : batch_(llama_batch_init(capacity, 0, sequences)) {}
  ~Batch() { llama_batch_free(batch_); }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;
  void Clear() { batch_.n_tokens = 0; }
  void Add(int32_t token, int32_t pos, int32_t seq, bool logits) {
    const int32_t i = batch_.n_tokens++;
    batch_.token[i] = token;
    batch_.pos[i] = pos;
    batch_.n_seq_id[i] = 1;
    batch_.seq_id[i][0] = seq;
    batch_.logits[i] = logits ? 1 : 0;
  }
  int32_t size() const { return batch_.n_tokens; }
  llama_batch& get() { return batch_; }

 private:
  llama_batch batch_;
};

// "N tokens per sequence (prompt, images and generation) are past the M tokens MODEL was trained on"
std::string PastTrainingContext(int64_t per_sequence, int32_t trained, const std::string& model) {
  return std::to_string(per_sequence) + " tokens per sequence (prompt, images and generation) are past the " +
         std::to_string(trained) + " tokens of context '" + model + "' was trained on";
}

std::string DecodeError(int32_t code) {
  switch (code) {
    case 1: return "no room in the KV cache for the batch (raise ctx=)";
    case 2: return "aborted";
    case -1: return "invalid input batch";
    default: return "fatal error " + std::to_string(code);
  }
}

class LlamaCppSession : public LlmSession {
 public:
  LlamaCppSession(std::unique_ptr<llama_model, ModelDeleter> model,
                  std::unique_ptr<llama_context, ContextDeleter> context,
                  std::unique_ptr<ThreadPool> threads, LlmSessionInfo info, int32_t batch,
                  std::unique_ptr<LlamaCppVision> vision)
      : model_(std::move(model)),
        threads_(std::move(threads)),
        context_(std::move(context)),
        vision_(std::move(vision)),
        vocab_(llama_model_get_vocab(model_.get())),
        info_(std::move(info)),
        batch_size_(batch),
        prefill_batch_(batch, 1),
        step_batch_(info_.max_sequences, 1),
        positions_(static_cast<size_t>(info_.max_sequences), 0) {}

  LlmSessionInfo Info() const override { return info_; }

  Result<std::vector<int32_t>> Tokenize(const std::string& text) override {
    std::vector<llama_token> tokens(text.size() + 8);
    int32_t n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                               static_cast<int32_t>(tokens.size()), /*add_special=*/true,
                               /*parse_special=*/false);
    if (n < 0) {
      tokens.resize(static_cast<size_t>(-n));
      n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                         static_cast<int32_t>(tokens.size()), true, false);
    }
    if (n <= 0) return Status::Error("llama.cpp could not tokenize the prompt text");
    tokens.resize(static_cast<size_t>(n));
    return std::vector<int32_t>(tokens.begin(), tokens.end());
  }

  Status ClearState() override {
    llama_memory_clear(llama_get_memory(context_.get()), true);
    positions_.assign(static_cast<size_t>(info_.max_sequences), 0);
    return Status::Ok();
  }

  Status ClearSequence(int32_t sequence) override {
    if (Status s = CheckSequence(sequence); !s.ok()) return s;
    // Removing a whole sequence never fails (llama.h); its cells are free for the next prompt.
    llama_memory_seq_rm(llama_get_memory(context_.get()), sequence, -1, -1);
    positions_[static_cast<size_t>(sequence)] = 0;
    return Status::Ok();
  }

  Result<std::vector<int32_t>> Prefill(const std::vector<LlmSequencePrompt>& prompts) override {
    if (prompts.empty() || static_cast<int32_t>(prompts.size()) > info_.max_sequences) {
      return Status::Error("expected 1 to " + std::to_string(info_.max_sequences) + " prompts");
    }
    std::vector<int32_t> first(prompts.size(), -1);
    prefill_batch_.Clear();
    // Chunks of `batch` tokens; a prompt's logits are read right after the chunk that holds
    // its last token (later decodes overwrite them).
    std::vector<size_t> waiting;  // prompts whose last token is in the current chunk
    std::vector<int32_t> index_in_batch(prompts.size(), -1);
    auto flush = [&]() -> Status {
      if (prefill_batch_.size() == 0) return Status::Ok();
      const int32_t rc = llama_decode(context_.get(), prefill_batch_.get());
      if (rc != 0) return Status::Error("llama.cpp prefill failed: " + DecodeError(rc));
      for (size_t i : waiting) {
        const float* logits = llama_get_logits_ith(context_.get(), index_in_batch[i]);
        if (!logits) {
          return Status::Error("llama.cpp returned no logits for sequence " + std::to_string(prompts[i].sequence));
        }
        first[i] = Argmax(logits, info_.vocab_size);
      }
      waiting.clear();
      prefill_batch_.Clear();
      return Status::Ok();
    };
    for (size_t i = 0; i < prompts.size(); ++i) {
      const LlmSequencePrompt& prompt = prompts[i];
      if (Status s = CheckSequence(prompt.sequence); !s.ok()) return s;
      if (prompt.tokens.empty()) return Status::Error("empty prompt for sequence " + std::to_string(prompt.sequence));
      int32_t& position = positions_[static_cast<size_t>(prompt.sequence)];
      for (size_t k = 0; k < prompt.tokens.size(); ++k) {
        const bool last = k + 1 == prompt.tokens.size();
        if (last) {
          index_in_batch[i] = prefill_batch_.size();
          waiting.push_back(i);
        }
        prefill_batch_.Add(prompt.tokens[k], position++, prompt.sequence, last);
        if (prefill_batch_.size() == batch_size_) {
          if (Status s = flush(); !s.ok()) return s;
        }
      }
    }
    if (Status s = flush(); !s.ok()) return s;
    return first;
  }

  Result<std::vector<int32_t>> DecodeStep(const std::vector<LlmSequenceToken>& last) override {
    if (last.empty() || static_cast<int32_t>(last.size()) > info_.max_sequences) {
      return Status::Error("expected 1 to " + std::to_string(info_.max_sequences) + " sequences in a step");
    }
    step_batch_.Clear();
    for (const LlmSequenceToken& t : last) {
      if (Status s = CheckSequence(t.sequence); !s.ok()) return s;
      step_batch_.Add(t.token, positions_[static_cast<size_t>(t.sequence)]++, t.sequence, true);
    }
    const int32_t rc = llama_decode(context_.get(), step_batch_.get());
    if (rc != 0) return Status::Error("llama.cpp decode failed: " + DecodeError(rc));
    std::vector<int32_t> next(last.size());
    for (size_t i = 0; i < last.size(); ++i) {
      const float* logits = llama_get_logits_ith(context_.get(), static_cast<int32_t>(i));
      if (!logits) return Status::Error("llama.cpp returned no logits");
      next[i] = Argmax(logits, info_.vocab_size);
    }
    return next;
  }

  Result<std::unique_ptr<LlmMediaPrompt>> PrepareMedia(const std::vector<std::string>& image_files,
                                                       const std::string& text) override {
    if (!vision_) return Status::Error("no projector was loaded with this model (--mmproj)");
    return vision_->Prepare(image_files, text);
  }

  Status EncodeImage(LlmMediaPrompt& prompt, size_t chunk) override {
    if (!vision_) return Status::Error("no projector was loaded with this model (--mmproj)");
    return vision_->Encode(prompt, chunk);
  }

  Result<int32_t> PrefillMediaChunk(LlmMediaPrompt& prompt, size_t chunk, int32_t sequence) override {
    if (!vision_) return Status::Error("no projector was loaded with this model (--mmproj)");
    if (Status s = CheckSequence(sequence); !s.ok()) return s;
    const auto& chunks = prompt.Chunks();
    if (chunk >= chunks.size()) return Status::Error("no chunk " + std::to_string(chunk));
    int32_t& position = positions_[static_cast<size_t>(sequence)];
    if (chunks[chunk].image) {
      auto next = vision_->DecodeImage(prompt, chunk, context_.get(), position, sequence, batch_size_);
      if (!next.ok()) return next.status();
      position = next.value();
      return -1;
    }
    auto tokens = vision_->TextTokens(prompt, chunk);
    if (!tokens.ok()) return tokens.status();
    const bool last_chunk = chunk + 1 == chunks.size();
    int32_t first = -1;
    prefill_batch_.Clear();
    for (size_t k = 0; k < tokens.value().size(); ++k) {
      const bool logits = last_chunk && k + 1 == tokens.value().size();
      prefill_batch_.Add(tokens.value()[k], position++, sequence, logits);
      if (prefill_batch_.size() == batch_size_ || k + 1 == tokens.value().size()) {
        const int32_t rc = llama_decode(context_.get(), prefill_batch_.get());
        if (rc != 0) return Status::Error("llama.cpp text prefill failed: " + DecodeError(rc));
        if (logits) {
          const float* row = llama_get_logits_ith(context_.get(), prefill_batch_.size() - 1);
          if (!row) return Status::Error("llama.cpp returned no logits for sequence " + std::to_string(sequence));
          first = Argmax(row, info_.vocab_size);
        }
        prefill_batch_.Clear();
      }
    }
    return first;
  }

  Result<std::vector<float>> EvaluateAllLogits(std::span<const int32_t> tokens) override {
    if (tokens.empty()) return Status::Error("no tokens to evaluate");
    if (static_cast<int64_t>(tokens.size()) > info_.context_size) {
      return Status::Error(std::to_string(tokens.size()) + " tokens do not fit the context of " +
                           std::to_string(info_.context_size) + "; raise ctx= or evaluate fewer tokens");
    }
    if (Status s = ClearState(); !s.ok()) return s;
    const size_t vocab = static_cast<size_t>(info_.vocab_size);
    std::vector<float> logits;
    logits.reserve(tokens.size() * vocab);
    // Chunks of `batch` tokens, every one asking for its logits; each chunk's logits are copied
    // out before the next decode overwrites them.
    for (size_t start = 0; start < tokens.size(); start += static_cast<size_t>(batch_size_)) {
      const size_t end = std::min(tokens.size(), start + static_cast<size_t>(batch_size_));
      prefill_batch_.Clear();
      for (size_t k = start; k < end; ++k) prefill_batch_.Add(tokens[k], static_cast<int32_t>(k), 0, true);
      const int32_t rc = llama_decode(context_.get(), prefill_batch_.get());
      if (rc != 0) {
        (void)ClearState();
        return Status::Error("llama.cpp evaluation failed at tokens " + std::to_string(start) + ".." +
                             std::to_string(end - 1) + ": " + DecodeError(rc));
      }
      for (size_t k = start; k < end; ++k) {
        const float* row = llama_get_logits_ith(context_.get(), static_cast<int32_t>(k - start));
        if (!row) {
          (void)ClearState();
          return Status::Error("llama.cpp returned no logits for position " + std::to_string(k));
        }
        logits.insert(logits.end(), row, row + vocab);
      }
    }
    if (Status s = ClearState(); !s.ok()) return s;
    return logits;
  }

 private:
  Status CheckSequence(int32_t sequence) const {
    if (sequence < 0 || sequence >= info_.max_sequences) {
      return Status::Error("sequence " + std::to_string(sequence) + " is outside 0.." +
                           std::to_string(info_.max_sequences - 1) + " (the context was made for " +
                           std::to_string(info_.max_sequences) + ")");
    }
    return Status::Ok();
  }

  std::unique_ptr<llama_model, ModelDeleter> model_;
  std::unique_ptr<ThreadPool> threads_;  // outlives the context that uses it
  std::unique_ptr<llama_context, ContextDeleter> context_;
  std::unique_ptr<LlamaCppVision> vision_;  // freed before the model it was loaded for
  const llama_vocab* vocab_;
  LlmSessionInfo info_;
  int32_t batch_size_;
  Batch prefill_batch_;
  Batch step_batch_;
  std::vector<int32_t> positions_;
};

ggml_type CacheType(const std::string& name) {
  if (name == "q8_0") return GGML_TYPE_Q8_0;
  if (name == "q4_0") return GGML_TYPE_Q4_0;
  return GGML_TYPE_F16;
}

// A ggml device's target name: its registry name in lower case ("CPU", "Vulkan0" -> "vulkan0").
std::string GgmlTargetName(ggml_backend_dev_t device) {
  if (ggml_backend_dev_type(device) == GGML_BACKEND_DEVICE_TYPE_CPU) return "cpu";
  return ToLowerAscii(ggml_backend_dev_name(device));
}

// The ggml device a target names, or nullptr.
ggml_backend_dev_t FindGgmlDevice(const std::string& target_device) {
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_dev_t device = ggml_backend_dev_get(i);
    if (GgmlTargetName(device) == target_device) return device;
  }
  return nullptr;
}

std::string GgmlDeviceNames() {
  std::string names;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    names += (names.empty() ? "llamacpp:" : ", llamacpp:") + GgmlTargetName(ggml_backend_dev_get(i));
  }
  return names.empty() ? "none" : names;
}

class LlamaCppBackend : public Backend {
 public:
  LlamaCppBackend() { log_.Install(); }

  BackendInfo Info() const override {
    EnsureInit();
    BackendInfo info = InfoFromDescription(DescribeLlamaCppBackend());
    info.version = LibraryVersion();
    bool cpu = false;
    for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
      if (ggml_backend_dev_type(ggml_backend_dev_get(i)) == GGML_BACKEND_DEVICE_TYPE_CPU) cpu = true;
    }
    const std::string variant = log_.cpu_variant();
    info.devices.push_back({"cpu",
                            "ggml CPU backend" + (variant.empty() ? std::string() : " (" + variant + ")"),
                            cpu, cpu ? "" : "ggml found no CPU backend to load", "",
                            {.language_model = true, .matrix_probe = true}});
    // Every other device ggml's registry found (its backends are libraries of their own, loaded
    // by ggml_backend_load_all): a GPU, an integrated GPU or an accelerator.
    bool other = false;
    for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
      ggml_backend_dev_t device = ggml_backend_dev_get(i);
      if (ggml_backend_dev_type(device) == GGML_BACKEND_DEVICE_TYPE_CPU) continue;
      other = true;
      const std::string description = ggml_backend_dev_description(device);
      const std::string emulated = GgmlDeviceEmulation(description);
      info.devices.push_back({GgmlTargetName(device),
                              std::string(ggml_backend_reg_name(ggml_backend_dev_backend_reg(device))) + " device " +
                                  ggml_backend_dev_name(device) + ": " + description +
                                  (emulated.empty() ? "" : " (emulated: " + emulated + ")"),
                              true, "", "", {.language_model = true}});
    }
    if (!other) {
      // ggml's Vulkan backend lists GPUs only: a Vulkan driver that runs on the CPU (Mesa's
      // lavapipe) is hidden unless GGML_VK_VISIBLE_DEVICES names it.
      const bool vulkan = ggml_backend_reg_by_name("Vulkan") != nullptr;
      info.devices.push_back(
          {"gpu", "", false,
           vulkan ? "ggml's Vulkan backend is loaded and found no GPU; it hides Vulkan devices that run on the CPU "
                    "(Mesa's lavapipe) unless GGML_VK_VISIBLE_DEVICES names them: GGML_VK_VISIBLE_DEVICES=0 "
                    "shows the first (docs/accelerators.md)"
                  : "ggml found no GPU or accelerator device: its GPU backends are libraries of their own "
                    "(Debian: libggml0-backend-vulkan, with a Vulkan driver; docs/accelerators.md)",
           "", {.language_model = true}});
    }
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target&) override {
    return Status::Error("'" + artifact.path + "' is a language model: measure it with `edgebench llm`");
  }

  Result<std::unique_ptr<Session>> LoadMatMulProbe(int64_t size, bool int8, const Target& target) override {
    if (target.device != "cpu") {
      return Status::Error("llama.cpp has no device '" + target.device + "' here; use llamacpp:cpu");
    }
    EnsureInit();
    auto threads = TargetOptions(target).Int("threads", UsableCores(), 1, 1024);
    if (!threads.ok()) return threads.status();
    return LoadGgmlMatMulProbe(size, int8, threads.value());
  }

  Result<std::unique_ptr<LlmSession>> LoadLlm(const Artifact& artifact, const Target& target,
                                              const LlmLoadHints& hints) override {
    EnsureInit();
    ggml_backend_dev_t device = FindGgmlDevice(target.device);
    if (device == nullptr) {
      return Status::Error("llama.cpp has no device '" + target.device + "' here; ggml found " + GgmlDeviceNames() +
                           " (`edgebench devices` says why one is missing)");
    }
    const bool on_cpu = target.device == "cpu";
    if (!on_cpu && !hints.mmproj.empty()) {
      return Status::Error(target.text + " with images: edgebench runs a vision tower on the CPU only so far "
                           "(libmtmd would put it on the device unchecked); use llamacpp:cpu for --image");
    }
    TargetOptions options(target);
    // ngl: the layers offloaded to the device (llama.cpp's n_gpu_layers; all of them by default,
    // as llama-bench's -ngl 99). On the CPU there is nothing to offload to.
    auto ngl = on_cpu ? Result<int>(0) : options.Int("ngl", 999, 0, 999);
    // fallback=fail: every layer on the device, or no session (as ort's fallback=fail).
    auto fallback = on_cpu ? Result<std::string>(std::string("allow")) : options.Choice("fallback", "allow", {"allow", "fail"});
    auto threads = options.Int("threads", UsableCores(), 1, 1024);
    auto batch = options.Int("batch", 2048, 1, 1 << 20);
    auto ubatch = options.Int("ubatch", 512, 1, 1 << 20);
    auto fa = options.Choice("fa", "auto", {"on", "off", "auto"});
    auto kv = options.Choice("kv", "f16", {"f16", "q8_0", "q4_0"});
    // mmap=on maps the GGUF (llama.cpp's default, use_mmap): a cold load reads pages as they are
    // touched; off reads the whole file into memory at load.
    auto mmap = options.Choice("mmap", "on", {"on", "off"});
    // Without ctx=, the context holds every sequence's prompt and generation (and, with a
    // projector, its images' tokens, known once the projector is loaded), rounded up to 256.
    auto ctx = options.Int("ctx", 256, 1, 1 << 24);
    int64_t vision_image_tokens = 0;
    for (const Status& s : {ngl.status(), fallback.status(), threads.status(), batch.status(), ubatch.status(), fa.status(), kv.status(),
                            mmap.status(), ctx.status(), options.CheckAllUsed()}) {
      if (!s.ok()) return s;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(artifact.path, ec)) {
      return Status::Error("model file '" + artifact.path + "' does not exist or is not a file");
    }
    std::lock_guard<std::mutex> lock(mutex_);
    log_.TakeErrors();
    llama_model_params model_params = llama_model_default_params();
    // The target's device only: with a GPU backend loaded, llama.cpp would otherwise use every
    // device it finds, and offload a CPU model's large batches to one (op_offload). An empty
    // list keeps llamacpp:cpu on the CPU; llamacpp:vulkan0 gets that device and the CPU.
    ggml_backend_dev_t devices[] = {on_cpu ? nullptr : device, nullptr};
    model_params.devices = devices;
    model_params.n_gpu_layers = static_cast<int32_t>(ngl.value());
    log_.TakePlacement();
    // llama.cpp reads the file instead where it cannot map it: the record holds what ran.
    const bool use_mmap = mmap.value() == "on" && llama_supports_mmap();
    // Set either way (llama-bench's default is mmap=1): the record then says what ran, not what
    // llama.cpp's automatic mode would pick.
    model_params.load_mode = use_mmap ? LLAMA_LOAD_MODE_MMAP : LLAMA_LOAD_MODE_NONE;
    std::unique_ptr<llama_model, ModelDeleter> model(llama_model_load_from_file(artifact.path.c_str(), model_params));
    if (!model) {
      const std::string why = log_.TakeErrors();
      return Status::Error("llama.cpp cannot load '" + artifact.path + "'" +
                           (why.empty() ? ": not a usable GGUF model" : ": " + why));
    }
    // A projector: loaded beside the model, every image pre-processed once here so a bad one is
    // a load error naming it, and so the context can hold a request's image tokens.
    std::unique_ptr<LlamaCppVision> vision;
    int32_t needed_per_sequence = std::max<int32_t>(hints.tokens_per_sequence, 1);
    if (!hints.mmproj.empty()) {
      auto loaded = LlamaCppVision::Load(hints.mmproj, model.get(), threads.value(), log_);
      if (!loaded.ok()) return loaded.status();
      vision = loaded.take();
      // A request of images_per_request copies of each image in turn: the largest such request
      // bounds any mix of them (an image's tokens depend on it alone).
      const size_t per_request = static_cast<size_t>(std::max<int32_t>(hints.images_per_request, 1));
      int64_t most_request_tokens = 0;
      for (const std::string& image : hints.images) {
        auto probe = vision->Prepare(std::vector<std::string>(per_request, image), hints.text);
        if (!probe.ok()) return probe.status();
        int64_t image_tokens = 0, tokens = 0;
        for (const LlmMediaChunk& c : probe.value()->Chunks()) {
          tokens += c.tokens;
          if (c.image) image_tokens += c.tokens;
        }
        most_request_tokens = std::max(most_request_tokens, tokens);
        vision_image_tokens = std::max(vision_image_tokens, image_tokens / static_cast<int64_t>(per_request));
      }
      needed_per_sequence += static_cast<int32_t>(std::min<int64_t>(most_request_tokens, 1 << 24));
    }
    const int32_t sequences = std::max<int32_t>(hints.sequences, 1);
    const int32_t needed = needed_per_sequence * sequences;
    // Past the context the model was trained on, llama.cpp runs on with positions the model never
    // saw: the context is not enlarged there unless ctx= asks for it, and then the record says so.
    const int32_t trained = llama_model_n_ctx_train(model.get());
    const bool past_training = trained > 0 && needed_per_sequence > trained;
    if (past_training && !target.options.count("ctx")) {
      return Status::Error(PastTrainingContext(needed_per_sequence, trained, artifact.path) +
                           ": shorten the prompt or the generation, or give ctx= on the target to run past it anyway");
    }
    int64_t automatic_ctx = (static_cast<int64_t>(needed) + 255) / 256 * 256;
    // The rounding stops at the trained context per sequence, so it never goes past it by itself.
    if (trained > 0 && !past_training) {
      automatic_ctx = std::max<int64_t>(needed, std::min<int64_t>(automatic_ctx, int64_t{trained} * sequences));
    }
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = static_cast<uint32_t>(target.options.count("ctx") ? ctx.value() : automatic_ctx);
    cp.n_batch = static_cast<uint32_t>(batch.value());
    cp.n_ubatch = static_cast<uint32_t>(ubatch.value());
    cp.n_seq_max = static_cast<uint32_t>(std::max<int32_t>(hints.sequences, 1));
    cp.n_threads = threads.value();
    cp.n_threads_batch = threads.value();
    cp.flash_attn_type = fa.value() == "on"    ? LLAMA_FLASH_ATTN_TYPE_ENABLED
                         : fa.value() == "off" ? LLAMA_FLASH_ATTN_TYPE_DISABLED
                                               : LLAMA_FLASH_ATTN_TYPE_AUTO;
    cp.type_k = CacheType(kv.value());
    cp.type_v = CacheType(kv.value());
    cp.no_perf = true;
    std::unique_ptr<llama_context, ContextDeleter> context(llama_init_from_model(model.get(), cp));
    if (!context) {
      const std::string why = log_.TakeErrors();
      return Status::Error("llama.cpp cannot create a context for '" + artifact.path + "' with " +
                           target.text + (why.empty() ? "" : ": " + why));
    }
    auto pool = std::make_unique<ThreadPool>();
    if (pool->Create(threads.value())) {
      llama_attach_threadpool(context.get(), pool->get(), pool->get());
    } else {
      pool.reset();
    }
    // llama.cpp caps the logical batch at the context size; chunk prompts by what it uses.
    const int32_t effective_batch = static_cast<int32_t>(llama_n_batch(context.get()));
    if (static_cast<int64_t>(llama_n_ctx(context.get())) < needed) {
      return Status::Error("context of " + std::to_string(llama_n_ctx(context.get())) +
                           " tokens is too small for " + std::to_string(hints.sequences) + " x " +
                           std::to_string(needed_per_sequence) +
                           " tokens (prompt + generation per sequence); raise ctx= or leave it unset");
    }
    LlmSessionInfo info;
    char desc[256] = {};
    llama_model_desc(model.get(), desc, sizeof desc);
    info.model_description = desc;
    info.model_parameters = llama_model_n_params(model.get());
    info.model_bytes = llama_model_size(model.get());
    info.vocab_size = llama_vocab_n_tokens(llama_model_get_vocab(model.get()));
    info.context_size = static_cast<int32_t>(llama_n_ctx(context.get()));
    info.max_sequences = static_cast<int32_t>(cp.n_seq_max);
    char description[512] = {};
    if (llama_model_meta_val_str(model.get(), "general.description", description, sizeof description) > 0) {
      info.random_weights = std::string(description).find("random weights") != std::string::npos;
    }
    // K and V widths per layer from the model's shape; llama.cpp has no query for the cache size.
    const int64_t n_layer = llama_model_n_layer(model.get());
    const int64_t n_embd = llama_model_n_embd(model.get());
    const int64_t n_head = std::max(1, llama_model_n_head(model.get()));
    const int64_t kv_width = n_embd / n_head * llama_model_n_head_kv(model.get());
    const int64_t kv_bytes_per_position =
        n_layer * static_cast<int64_t>(ggml_row_size(cp.type_k, kv_width) + ggml_row_size(cp.type_v, kv_width));
    info.kv_cache_bytes = kv_bytes_per_position * info.context_size;
    // The roofline's counts: what a token reads and computes, from the file's tensor table.
    auto work = ReadLlmWork(artifact.path, model.get(), kv_bytes_per_position);
    if (work.ok()) {
      info.work = work.take();
    } else {
      info.work_unknown = work.error();
    }
    const int32_t effective_ubatch = static_cast<int32_t>(llama_n_ubatch(context.get()));
    // llama.cpp changes some asked values (ubatch to at most batch, batch to at most ctx, ctx
    // rounded and grown for every sequence): the record holds what ran, and says so.
    for (const auto& [key, asked, ran] :
         {std::tuple<const char*, int64_t, int64_t>{"batch", batch.value(), effective_batch},
          {"ubatch", ubatch.value(), effective_ubatch},
          {"ctx", ctx.value(), static_cast<int64_t>(info.context_size)}}) {
      if (target.options.count(key) && asked != ran) {
        info.notes.push_back(std::string(key) + "=" + std::to_string(asked) + " was asked; llama.cpp ran " + key +
                             "=" + std::to_string(ran));
      }
    }
    // Where the layers, the KV cache and the buffers went, from llama.cpp's own accounting
    // ("offloaded 2/3 layers to GPU", "Vulkan0 KV buffer size = 0.50 MiB"); on llamacpp:cpu,
    // that nothing went to a device another backend found.
    const LlamaPlacementLog placed = log_.TakePlacement();
    std::string kv_layers;
    for (const auto& [on, layers] : placed.kv_layers) {
      kv_layers += (kv_layers.empty() ? "" : ", ") + on + " " + std::to_string(layers);
    }
    if (!kv_layers.empty()) info.environment["kv_layers"] = kv_layers;
    for (const auto& [on, kinds] : placed.buffers_mib) {
      std::string text;
      for (const auto& [kind, mib] : kinds) {
        text += (text.empty() ? "" : ", ") + kind + " " + FormatNumber("%.2f", mib) + " MiB";
      }
      info.environment["buffers." + on] = text;
    }
    if (!on_cpu) {
      info.environment["device"] = std::string(ggml_backend_dev_name(device)) + ": " +
                                            ggml_backend_dev_description(device);
      info.environment["offload"] = placed.offload.empty() ? "llama.cpp did not say" : placed.offload;
      if (fallback.value() == "fail") {
        int on_device = -1, layers = -1;
        std::sscanf(placed.offload.c_str(), "%d/%d", &on_device, &layers);
        if (on_device < 0 || layers < 0 || on_device < layers) {
          return Status::Error(
              "fallback=fail: " +
              (on_device < 0 ? std::string("llama.cpp did not say how many layers it offloaded")
                             : "llama.cpp put " + std::to_string(on_device) + " of " + std::to_string(layers) +
                                   " layers on " + ggml_backend_dev_name(device) + "; " +
                                   std::to_string(layers - on_device) + " ran on the CPU") +
              " (ngl=" + std::to_string(ngl.value()) + "; fallback=allow runs it split)");
        }
      }
      if (const char* visible = std::getenv("GGML_VK_VISIBLE_DEVICES")) {
        info.environment["GGML_VK_VISIBLE_DEVICES"] = visible;
      }
      const std::string emulated = GgmlDeviceEmulation(ggml_backend_dev_description(device));
      if (!emulated.empty()) {
        info.environment["emulated"] = emulated;
        info.notes.push_back("emulated: " + emulated + ": the latencies are this machine's CPU running the device's "
                             "code, not a device's");
      }
      size_t free_bytes = 0, total_bytes = 0;
      ggml_backend_dev_memory(device, &free_bytes, &total_bytes);
      info.environment["device_memory"] = std::to_string(total_bytes - std::min(free_bytes, total_bytes)) +
                                                   " of " + std::to_string(total_bytes) + " bytes in use after load";
    }
    info.effective_options = {{"threads", std::to_string(threads.value())},
                              {"batch", std::to_string(effective_batch)},
                              {"ubatch", std::to_string(effective_ubatch)},
                              {"fa", fa.value()},
                              {"kv", kv.value()},
                              {"mmap", use_mmap ? "on" : "off"},
                              {"ctx", std::to_string(info.context_size)}};
    if (!on_cpu) info.effective_options["ngl"] = std::to_string(ngl.value());
    if (fallback.value() == "fail") info.effective_options["fallback"] = "fail";
    if (past_training) info.notes.push_back(PastTrainingContext(needed_per_sequence, trained, artifact.path) + " (ctx= asked for it)");
    if (mmap.value() == "on" && !use_mmap) {
      info.notes.push_back("mmap=on was asked; this llama.cpp build cannot map files and read the model instead (mmap=off)");
    }
    const std::string variant = log_.cpu_variant();
    if (!variant.empty()) info.environment["ggml_cpu_backend"] = variant;
    info.environment["llama_system_info"] = llama_print_system_info();
    info.environment["thread_pool"] = pool ? "attached (" + std::to_string(threads.value()) + " threads)"
                                           : "ggml's automatic pool";
    if (vision) {
      info.projector = vision->description() + ": up to " + std::to_string(vision_image_tokens) + " image tokens per image";
      info.vision_device = vision->device().empty() ? "unknown (libmtmd did not say)" : vision->device();
      // llamacpp:cpu asked for the CPU: a tower that went anywhere else measured something else.
      if (info.vision_device != "CPU") {
        return Status::Error("libmtmd put the vision tower on '" + info.vision_device + "', not on the CPU that " +
                             target.text + " asks for: refusing to time a tower that ran elsewhere");
      }
      for (const std::string& warning : log_.TakeVisionWarnings()) info.notes.push_back("libmtmd: " + warning);
    }
    if (info.random_weights) info.notes.push_back("random weights: latency only");
    return std::unique_ptr<LlmSession>(
        new LlamaCppSession(std::move(model), std::move(context), std::move(pool), std::move(info),
                            effective_batch, std::move(vision)));
  }

 private:
  void EnsureInit() const {
    std::call_once(init_, [] {
      llama_backend_init();
      ggml_backend_load_all();  // loads the best CPU variant (libggml-cpu-*.so)
    });
  }

  static std::string LibraryVersion() { return kLlamaVersion; }

  mutable LlamaLog log_;
  mutable std::once_flag init_;
  std::mutex mutex_;
};

}  // namespace

BackendDescription DescribeLlamaCppBackend() {
  return {"llamacpp", "llama.cpp", {".gguf"}, "", ""};
}

std::unique_ptr<Backend> MakeLlamaCppBackend() { return std::make_unique<LlamaCppBackend>(); }

}  // namespace edgebench
