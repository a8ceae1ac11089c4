// Tensors as JSON ({"name", "dtype", "shape", "data_base64"}), to pass inputs and outputs
// between the orchestrator and worker processes.
#pragma once

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

std::string Base64Encode(const std::vector<std::byte>& data);
Result<std::vector<std::byte>> Base64Decode(const std::string& text);
std::optional<DType> ParseDType(const std::string& name);

nlohmann::json TensorToJson(const Tensor& tensor);
Result<Tensor> TensorFromJson(const nlohmann::json& json);

}  // namespace edgebench
