// The roofline's parts of a record (docs/roofline.md): a language model's work per token as the
// backend counted it (llm.model.work), read back so that the roofline is derived again on read.
#pragma once

#include <nlohmann/json.hpp>

#include "core/llm_types.h"
#include "core/status.h"
#include "core/tensor_work.h"

namespace edgebench {

// {"tensor_bytes": .., ...} or {"unknown": "why"}.
nlohmann::json LlmWorkToJson(const LlmSessionInfo& session);
// Sets session.work or session.work_unknown; a record without the field says it predates the count.
void LlmWorkFromJson(const nlohmann::json& model, LlmSessionInfo& session);

// A tensor model's work per query as counted when the case ran: {"flops": .., ...} or
// {"omitted": "why"}.
nlohmann::json TensorWorkToJson(const TensorWork& work);
Result<TensorWork> TensorWorkFromJson(const nlohmann::json& j);

}  // namespace edgebench
