#include "record/record_drift.h"

#include "record/json_numbers.h"

namespace edgebench {
namespace {

using json = nlohmann::json;

TensorDriftRow DriftRowFromJson(const json& j) {
  TensorDriftRow row;
  row.reference_name = j.at("tensor").get<std::string>();
  row.candidate_name = j.value("candidate_tensor", "");
  row.node = j.value("node", "");
  row.op_type = j.value("op_type", "");
  row.shape = j.value("shape", std::vector<int64_t>{});
  row.compared = j.value("compared", false);
  if (!row.compared) {
    row.skip_reason = j.value("skip_reason", "");
    return row;
  }
  row.sqnr_db = NumberFrom(j.at("sqnr_db"));
  row.cosine = NumberFrom(j.at("cosine"));
  row.max_abs_error = NumberFrom(j.at("max_abs_error"));
  row.nonfinite = j.value("nonfinite", int64_t{0});
  if (j.contains("drop_db") && !j.at("drop_db").is_null()) row.drop_db = NumberFrom(j.at("drop_db"));
  return row;
}

json Rows(const std::vector<TensorDriftRow>& rows) {
  json list = json::array();
  for (const TensorDriftRow& row : rows) list.push_back(DriftRowToJson(row));
  return list;
}

std::vector<TensorDriftRow> RowsFrom(const json& j, const char* key) {
  std::vector<TensorDriftRow> rows;
  for (const json& row : j.value(key, json::array())) rows.push_back(DriftRowFromJson(row));
  return rows;
}

std::optional<double> OptionalFrom(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return NumberFrom(j.at(key));
}

}  // namespace

json DriftRowToJson(const TensorDriftRow& row) {
  json j = {{"tensor", row.reference_name}, {"candidate_tensor", row.candidate_name},
            {"node", row.node},             {"op_type", row.op_type},
            {"shape", row.shape},           {"compared", row.compared}};
  if (!row.compared) {
    j["skip_reason"] = row.skip_reason;
    return j;
  }
  j["sqnr_db"] = Number(row.sqnr_db);
  j["cosine"] = Number(row.cosine);
  j["max_abs_error"] = Number(row.max_abs_error);
  j["nonfinite"] = row.nonfinite;
  j["drop_db"] = row.drop_db ? Number(*row.drop_db) : json(nullptr);
  return j;
}

json TensorDriftToJson(const TensorDriftRecord& d) {
  auto optional_number = [](const std::optional<double>& v) { return v ? Number(*v) : json(nullptr); };
  auto name_or_null = [](const std::string& name) { return name.empty() ? json(nullptr) : json(name); };
  return {{"is_reference", d.is_reference},
          {"reference", {{"label", d.reference_label}, {"artifact", d.reference_artifact}}},
          {"label", d.candidate_label},
          {"samples", d.samples},
          {"inputs", d.inputs},
          {"min_sqnr_db", Number(d.min_sqnr_db)},
          {"not_comparable", d.not_comparable},
          {"intermediates_unsupported", d.intermediates_unsupported},
          {"tensors", Rows(d.tensors)},
          {"final_outputs", Rows(d.final_outputs)},
          {"unexposed_outputs", Rows(d.unexposed_outputs)},
          {"exposure_changed_output", d.exposure_changed_output ? json(*d.exposure_changed_output) : json(nullptr)},
          {"exposure_output_sqnr_db", optional_number(d.exposure_output_sqnr_db)},
          {"exposure", d.exposure_text},
          {"first_drift", name_or_null(d.first_drift)},
          {"largest_drop", name_or_null(d.largest_drop)},
          {"matched", d.matched},
          {"skipped", d.skipped},
          {"reference_only", d.reference_only},
          {"candidate_only", d.candidate_only},
          {"candidate_only_ops", d.candidate_only_ops},
          {"findings", d.findings},
          {"errors", d.errors},
          {"reference_top1", optional_number(d.reference_top1)},
          {"top1", optional_number(d.top1)},
          {"top1_delta_points", optional_number(d.top1_delta_points)}};
}

Result<TensorDriftRecord> TensorDriftFromJson(const json& j) {
  try {
    TensorDriftRecord d;
    d.is_reference = j.value("is_reference", false);
    const json reference = j.value("reference", json::object());
    d.reference_label = reference.value("label", "");
    d.reference_artifact = reference.value("artifact", "");
    d.candidate_label = j.value("label", "");
    d.samples = j.value("samples", int64_t{0});
    d.inputs = j.value("inputs", std::vector<std::string>{});
    if (j.contains("min_sqnr_db")) d.min_sqnr_db = NumberFrom(j.at("min_sqnr_db"));
    d.not_comparable = j.value("not_comparable", "");
    d.intermediates_unsupported = j.value("intermediates_unsupported", "");
    d.tensors = RowsFrom(j, "tensors");
    d.final_outputs = RowsFrom(j, "final_outputs");
    d.unexposed_outputs = RowsFrom(j, "unexposed_outputs");
    if (j.contains("exposure_changed_output") && !j.at("exposure_changed_output").is_null()) {
      d.exposure_changed_output = j.at("exposure_changed_output").get<bool>();
    }
    d.exposure_output_sqnr_db = OptionalFrom(j, "exposure_output_sqnr_db");
    d.exposure_text = j.value("exposure", "");
    if (j.contains("first_drift") && !j.at("first_drift").is_null()) d.first_drift = j.at("first_drift").get<std::string>();
    if (j.contains("largest_drop") && !j.at("largest_drop").is_null()) {
      d.largest_drop = j.at("largest_drop").get<std::string>();
    }
    d.matched = j.value("matched", int64_t{0});
    d.skipped = j.value("skipped", int64_t{0});
    d.reference_only = j.value("reference_only", std::vector<std::string>{});
    d.candidate_only = j.value("candidate_only", std::vector<std::string>{});
    d.candidate_only_ops = j.value("candidate_only_ops", std::map<std::string, int64_t>{});
    d.findings = j.value("findings", std::vector<std::string>{});
    d.errors = j.value("errors", std::vector<std::string>{});
    d.reference_top1 = OptionalFrom(j, "reference_top1");
    d.top1 = OptionalFrom(j, "top1");
    d.top1_delta_points = OptionalFrom(j, "top1_delta_points");
    return d;
  } catch (const json::exception& e) {
    return Status::Error(e.what());
  }
}

}  // namespace edgebench
