#include "record/record_roofline.h"

namespace edgebench {

using json = nlohmann::json;

json LlmWorkToJson(const LlmSessionInfo& session) {
  if (!session.work) return {{"unknown", session.work_unknown}};
  const LlmWork& w = *session.work;
  return {{"tensor_bytes", w.tensor_bytes},
          {"weight_bytes_per_token", w.weight_bytes_per_token},
          {"kv_bytes_per_position", w.kv_bytes_per_position},
          {"matmul_weights", w.matmul_weights},
          {"attention_flops_per_position", w.attention_flops_per_position},
          {"approximate", w.approximate},
          {"notes", w.notes}};
}

void LlmWorkFromJson(const json& model, LlmSessionInfo& session) {
  if (!model.contains("work")) {
    session.work_unknown = "the record predates edgebench's count of a token's work";
    return;
  }
  const json& j = model.at("work");
  if (j.contains("unknown")) {
    session.work_unknown = j.at("unknown").get<std::string>();
    return;
  }
  LlmWork w;
  w.tensor_bytes = j.at("tensor_bytes").get<int64_t>();
  w.weight_bytes_per_token = j.at("weight_bytes_per_token").get<int64_t>();
  w.kv_bytes_per_position = j.at("kv_bytes_per_position").get<int64_t>();
  w.matmul_weights = j.at("matmul_weights").get<int64_t>();
  w.attention_flops_per_position = j.at("attention_flops_per_position").get<int64_t>();
  w.approximate = j.value("approximate", false);
  w.notes = j.value("notes", std::vector<std::string>{});
  session.work = w;
}

}  // namespace edgebench
