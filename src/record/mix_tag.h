// The record's `mix` section (docs/mixes.md): which mix a case ran in, as which workload, and
// whether alone or beside the others, so that the interference of a mix is read from its
// records alone.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

struct MixTag {
  std::string mix;       // the mix file's name:
  std::string workload;  // this workload's name
  std::string phase;     // "alone" or "mixed"
  std::vector<std::string> beside;  // mixed: the other workloads running at the same time
};

nlohmann::json MixTagToJson(const MixTag& tag);
// An error names the field that is missing or wrong.
Result<MixTag> MixTagFromJson(const nlohmann::json& json);

}  // namespace edgebench
