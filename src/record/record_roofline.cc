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
          {"output_weights", w.output_weights},
          {"attention_flops_per_position", w.attention_flops_per_position},
          {"approximate", w.approximate},
          {"precision", w.precision},
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
  w.output_weights = j.value("output_weights", int64_t{0});  // older records: the output layer in every token
  w.attention_flops_per_position = j.at("attention_flops_per_position").get<int64_t>();
  w.approximate = j.value("approximate", false);
  w.precision = j.value("precision", std::string());
  w.notes = j.value("notes", std::vector<std::string>{});
  session.work = w;
}

json TensorWorkToJson(const TensorWork& w) {
  if (!w.counted()) return {{"omitted", w.omitted}};
  return {{"method", w.method},
          {"nodes", w.nodes},
          {"precision", w.precision},
          {"flops", w.flops()},
          {"matmul_flops", w.matmul_flops},
          {"conv_flops", w.conv_flops},
          {"rule_flops", w.rule_flops},
          {"weight_bytes", w.weight_bytes},
          {"activation_bytes", w.activation_bytes},
          {"approximate", w.approximate()},
          {"approximations", w.approximations}};
}

Result<TensorWork> TensorWorkFromJson(const json& j) {
  try {
    TensorWork w;
    if (j.contains("omitted")) {
      w.omitted = j.at("omitted").get<std::string>();
      if (w.omitted.empty()) w.omitted = "unknown";
      return w;
    }
    w.method = j.value("method", std::string());
    w.nodes = j.value("nodes", int64_t{0});
    w.precision = j.value("precision", std::string("fp32"));
    w.matmul_flops = j.at("matmul_flops").get<double>();
    w.conv_flops = j.at("conv_flops").get<double>();
    w.rule_flops = j.at("rule_flops").get<double>();
    w.weight_bytes = j.at("weight_bytes").get<int64_t>();
    w.activation_bytes = j.at("activation_bytes").get<int64_t>();
    w.approximations = j.value("approximations", std::vector<std::string>{});
    if (w.matmul_flops < 0 || w.conv_flops < 0 || w.rule_flops < 0 || w.weight_bytes < 0 || w.activation_bytes < 0) {
      return Status::Error("a negative count");
    }
    return w;
  } catch (const json::exception& e) {
    return Status::Error(e.what());
  }
}

}  // namespace edgebench
