// A case as the orchestrator hands it to a worker: model x target x scenario and settings.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/tensor.h"
#include "load/llm_scenario.h"
#include "load/settings.h"

namespace edgebench {

struct CaseSpec {
  std::string model;     // name shown in results
  std::string artifact;  // file path
  std::string target;    // as the user wrote it
  ShapeBindings dims;
  RunSettings settings;  // as requested
  std::string scenario = "single-stream";  // or "llm"
  LlmSettings llm;       // for scenario "llm"
};

nlohmann::json CaseSpecToJson(const CaseSpec& spec);
Result<CaseSpec> CaseSpecFromJson(const nlohmann::json& json);

}  // namespace edgebench
