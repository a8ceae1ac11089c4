// One vision-language request's prompt through a session, stage by stage (docs/vlm.md): the
// images pre-processed with the text (LlmSession::PrepareMedia), then the chunks in prompt
// order, each image encoded by the vision tower and its embeddings decoded into the sequence,
// each text chunk decoded, the last one giving the first token. The harness's clock reads
// between the calls; nothing here times itself inside a runtime call.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/llm_session.h"
#include "core/llm_types.h"

namespace edgebench {

// The images of request `index` (0-based within its phase): images_per_request of
// settings.images in turn, starting at (index x images_per_request) mod images.size().
std::vector<std::string> RequestImages(const LlmSettings& settings, int64_t index);

// Prefills one request into the empty `sequence`, filling `stages` (times, images, tokens).
// Returns the first generated token; on an error `failed_stage` is "preprocess", "encode",
// "image prefill" or "text prefill".
Result<int32_t> PrefillVisionRequest(LlmSession& session, const std::vector<std::string>& images,
                                     const std::string& text, int32_t sequence,
                                     const std::function<int64_t()>& now, LlmVisionStages& stages,
                                     std::string& failed_stage);

}  // namespace edgebench
