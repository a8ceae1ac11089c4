#include "backends/llamacpp/llamacpp_vision.h"

#include <filesystem>

#if EDGEBENCH_HAVE_MTMD
#include <mtmd-helper.h>
#include <mtmd.h>
#endif

namespace edgebench {

#if EDGEBENCH_HAVE_MTMD

// Outside an anonymous namespace: LlamaCppVision::State points at an MtmdPrompt, which holds these.
struct MtmdChunksDeleter {
  void operator()(mtmd_input_chunks* c) const { mtmd_input_chunks_free(c); }
};
struct MtmdBitmapDeleter {
  void operator()(mtmd_bitmap* b) const { mtmd_bitmap_free(b); }
};

// A prompt libmtmd tokenized.
class MtmdPrompt : public LlmMediaPrompt {
 public:
  explicit MtmdPrompt(std::unique_ptr<mtmd_input_chunks, MtmdChunksDeleter> chunks) : chunks_(std::move(chunks)) {
    for (size_t i = 0; i < mtmd_input_chunks_size(chunks_.get()); ++i) {
      const mtmd_input_chunk* c = mtmd_input_chunks_get(chunks_.get(), i);
      infos_.push_back({mtmd_input_chunk_get_type(c) != MTMD_INPUT_CHUNK_TYPE_TEXT,
                        static_cast<int64_t>(mtmd_input_chunk_get_n_tokens(c))});
    }
  }
  const std::vector<LlmMediaChunk>& Chunks() const override { return infos_; }
  const mtmd_input_chunk* Get(size_t i) const { return mtmd_input_chunks_get(chunks_.get(), i); }

 private:
  std::unique_ptr<mtmd_input_chunks, MtmdChunksDeleter> chunks_;
  std::vector<LlmMediaChunk> infos_;
};

struct LlamaCppVision::State {
  mtmd_context* context = nullptr;
  // The image chunk whose embeddings mtmd holds now (mtmd_get_output_embd is valid until the
  // next encode): a decode of any other chunk is refused rather than reading another's output.
  const MtmdPrompt* encoded_prompt = nullptr;
  size_t encoded_chunk = 0;
  ~State() {
    if (context) mtmd_free(context);
  }
};

LlamaCppVision::LlamaCppVision(std::unique_ptr<State> state) : state_(std::move(state)) {}
LlamaCppVision::~LlamaCppVision() = default;

Result<std::unique_ptr<LlamaCppVision>> LlamaCppVision::Load(const std::string& mmproj, const llama_model* model,
                                                             int threads, LlamaLog& log) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(mmproj, ec)) {
    return Status::Error("projector file '" + mmproj + "' (--mmproj) does not exist or is not a file");
  }
  log.TakeErrors();
  mtmd_context_params params = mtmd_context_params_default();
  params.use_gpu = false;  // llamacpp:cpu; libmtmd's log says where the tower went, checked below
  params.n_threads = threads;
  params.print_timings = false;
  params.warmup = false;  // the scenario's warmup requests do that, reported apart
  auto state = std::make_unique<State>();
  state->context = mtmd_init_from_file(mmproj.c_str(), model, params);
  if (!state->context) {
    const std::string why = log.TakeErrors();
    return Status::Error("libmtmd cannot load the projector '" + mmproj + "' for this model" +
                         (why.empty() ? ": not a usable mmproj GGUF" : ": " + why));
  }
  if (!mtmd_support_vision(state->context)) {
    return Status::Error("projector '" + mmproj + "' has no vision encoder (an audio projector?): it cannot take --image");
  }
  std::unique_ptr<LlamaCppVision> vision(new LlamaCppVision(std::move(state)));
  vision->device_ = log.vision_backend();
  vision->description_ = std::filesystem::path(mmproj).filename().string();
  return vision;
}

Result<std::unique_ptr<LlmMediaPrompt>> LlamaCppVision::Prepare(const std::vector<std::string>& image_files,
                                                                 const std::string& text) {
  std::vector<std::unique_ptr<mtmd_bitmap, MtmdBitmapDeleter>> bitmaps;
  for (const std::string& file : image_files) {
    mtmd_helper_bitmap_wrapper loaded =
        mtmd_helper_bitmap_init_from_file(state_->context, file.c_str(), false, mtmd_helper_init_opt_default());
    if (loaded.video_ctx) mtmd_helper_video_free(loaded.video_ctx);
    std::unique_ptr<mtmd_bitmap, MtmdBitmapDeleter> bitmap(loaded.bitmap);
    if (!bitmap) {
      std::error_code ec;
      return Status::Error("image '" + file + "' " +
                           (std::filesystem::is_regular_file(file, ec)
                                ? std::string("could not be decoded (libmtmd reads PNG, JPEG, BMP, GIF, TGA, PSD, PNM)")
                                : std::string("does not exist or is not a file")));
    }
    if (mtmd_bitmap_is_audio(bitmap.get())) return Status::Error("'" + file + "' is audio, not an image");
    bitmaps.push_back(std::move(bitmap));
  }
  const std::string marker = mtmd_default_marker();
  size_t markers_in_text = 0;
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + marker.size())) {
    ++markers_in_text;
  }
  std::string prompt = text;
  if (markers_in_text == 0) {
    std::string markers;
    for (size_t i = 0; i < image_files.size(); ++i) markers += marker;
    prompt = markers + text;
  } else if (markers_in_text != image_files.size()) {
    return Status::Error("the prompt text has " + std::to_string(markers_in_text) + " " + marker + " markers for the " +
                         std::to_string(image_files.size()) + " images of a request (--images-per-request): give one "
                         "marker per image, or none to put the images first");
  }
  std::vector<const mtmd_bitmap*> pointers;
  for (const auto& b : bitmaps) pointers.push_back(b.get());
  mtmd_input_text input{prompt.c_str(), prompt.size(), /*add_special=*/true, /*parse_special=*/true};
  std::unique_ptr<mtmd_input_chunks, MtmdChunksDeleter> chunks(mtmd_input_chunks_init());
  const int32_t rc = mtmd_tokenize(state_->context, chunks.get(), &input, pointers.data(), pointers.size());
  if (rc != 0) return Status::Error("libmtmd could not pre-process the images (mtmd_tokenize returned " + std::to_string(rc) + ")");
  auto prepared = std::make_unique<MtmdPrompt>(std::move(chunks));
  if (prepared->Chunks().empty() || prepared->Chunks().back().image) {
    return Status::Error("the prompt ends with an image: put text after the last " + marker + " marker");
  }
  return std::unique_ptr<LlmMediaPrompt>(std::move(prepared));
}

Status LlamaCppVision::Encode(LlmMediaPrompt& prompt, size_t chunk) {
  auto& p = static_cast<MtmdPrompt&>(prompt);
  if (chunk >= p.Chunks().size() || !p.Chunks()[chunk].image) return Status::Error("chunk " + std::to_string(chunk) + " is not an image");
  const int32_t rc = mtmd_encode_chunk(state_->context, p.Get(chunk));
  if (rc != 0) return Status::Error("libmtmd's vision encoder failed (mtmd_encode_chunk returned " + std::to_string(rc) + ")");
  state_->encoded_prompt = &p;
  state_->encoded_chunk = chunk;
  return Status::Ok();
}

Result<int32_t> LlamaCppVision::DecodeImage(LlmMediaPrompt& prompt, size_t chunk, llama_context* context,
                                            int32_t position, int32_t sequence, int32_t batch) {
  auto& p = static_cast<MtmdPrompt&>(prompt);
  if (state_->encoded_prompt != &p || state_->encoded_chunk != chunk) {
    return Status::Error("image chunk " + std::to_string(chunk) + " is not the one encoded last: encode it first");
  }
  state_->encoded_prompt = nullptr;
  llama_pos next = position;
  const int32_t rc = mtmd_helper_decode_image_chunk(state_->context, context, p.Get(chunk),
                                                    mtmd_get_output_embd(state_->context), position, sequence, batch,
                                                    &next, nullptr, nullptr);
  if (rc != 0) {
    return Status::Error("llama.cpp could not decode the image's embeddings into the context (" +
                         std::string(rc == 1 ? "no room in the KV cache? raise ctx=" : "not an image chunk") + ")");
  }
  return static_cast<int32_t>(next);
}

Result<std::vector<llama_token>> LlamaCppVision::TextTokens(const LlmMediaPrompt& prompt, size_t chunk) const {
  const auto& p = static_cast<const MtmdPrompt&>(prompt);
  if (chunk >= p.Chunks().size() || p.Chunks()[chunk].image) return Status::Error("chunk " + std::to_string(chunk) + " is not text");
  size_t n = 0;
  const llama_token* tokens = mtmd_input_chunk_get_tokens_text(p.Get(chunk), &n);
  return std::vector<llama_token>(tokens, tokens + n);
}

#else  // !EDGEBENCH_HAVE_MTMD

struct LlamaCppVision::State {};
LlamaCppVision::LlamaCppVision(std::unique_ptr<State> state) : state_(std::move(state)) {}
LlamaCppVision::~LlamaCppVision() = default;

Result<std::unique_ptr<LlamaCppVision>> LlamaCppVision::Load(const std::string&, const llama_model*, int, LlamaLog&) {
  return Status::Error("this edgebench was built without llama.cpp's multimodal library (libmtmd, mtmd.h): "
                       "install libllama-dev with mtmd and rebuild to use --mmproj");
}
Result<std::unique_ptr<LlmMediaPrompt>> LlamaCppVision::Prepare(const std::vector<std::string>&, const std::string&) {
  return Status::Error("built without libmtmd");
}
Status LlamaCppVision::Encode(LlmMediaPrompt&, size_t) { return Status::Error("built without libmtmd"); }
Result<int32_t> LlamaCppVision::DecodeImage(LlmMediaPrompt&, size_t, llama_context*, int32_t, int32_t, int32_t) {
  return Status::Error("built without libmtmd");
}
Result<std::vector<llama_token>> LlamaCppVision::TextTokens(const LlmMediaPrompt&, size_t) const {
  return Status::Error("built without libmtmd");
}

#endif

}  // namespace edgebench
