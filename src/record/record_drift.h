// The record's `tensor_drift` section (docs/records.md, docs/drift.md): its JSON both ways.
#pragma once

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/tensor_drift_record.h"

namespace edgebench {

nlohmann::json DriftRowToJson(const TensorDriftRow& row);
nlohmann::json TensorDriftToJson(const TensorDriftRecord& drift);
// The error names the field that is missing or of the wrong type.
Result<TensorDriftRecord> TensorDriftFromJson(const nlohmann::json& json);

}  // namespace edgebench
