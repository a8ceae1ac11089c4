#include "load/vlm_request.h"

namespace edgebench {

std::vector<std::string> RequestImages(const LlmSettings& s, int64_t index) {
  std::vector<std::string> images;
  if (s.images.empty()) return images;
  const int64_t n = static_cast<int64_t>(s.images.size());
  const int64_t per_request = std::max<int64_t>(s.images_per_request, 1);
  for (int64_t k = 0; k < per_request; ++k) {
    images.push_back(s.images[static_cast<size_t>((index % n * per_request + k) % n)]);
  }
  return images;
}

Result<int32_t> PrefillVisionRequest(LlmSession& session, const std::vector<std::string>& images,
                                     const std::string& text, int32_t sequence,
                                     const std::function<int64_t()>& now, LlmVisionStages& stages,
                                     std::string& failed_stage) {
  stages = LlmVisionStages{};
  stages.images = static_cast<int64_t>(images.size());
  int64_t t = now();
  auto prompt = session.PrepareMedia(images, text);
  int64_t after = now();
  stages.preprocess_ns = after - t;
  if (!prompt.ok()) {
    failed_stage = "preprocess";
    return prompt.status();
  }
  const std::vector<LlmMediaChunk>& chunks = prompt.value()->Chunks();
  int32_t first = -1;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (chunks[i].image) {
      t = after;
      Status encoded = session.EncodeImage(*prompt.value(), i);
      after = now();
      stages.encode_ns += after - t;
      if (!encoded.ok()) {
        failed_stage = "encode";
        return encoded;
      }
      stages.image_tokens += chunks[i].tokens;
    } else {
      stages.text_tokens += chunks[i].tokens;
    }
    t = after;
    auto token = session.PrefillMediaChunk(*prompt.value(), i, sequence);
    after = now();
    (chunks[i].image ? stages.image_prefill_ns : stages.text_prefill_ns) += after - t;
    if (!token.ok()) {
      failed_stage = chunks[i].image ? "image prefill" : "text prefill";
      return token.status();
    }
    first = token.value();
  }
  if (first < 0) {
    failed_stage = "text prefill";
    return Status::Error("the prompt's last chunk gave no token (a prompt must end with text)");
  }
  return first;
}

}  // namespace edgebench
