// The record's `start` section (docs/cold-start.md): whether the case started cold (its files
// dropped from the page cache before the load, with the pages counted before and after) or warm.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/page_cache.h"
#include "core/status.h"

namespace edgebench {

struct StartRecord {
  std::string mode;                   // "cold" or "warm"
  std::optional<PageCacheDrop> drop;  // cold: what the drop left
};

nlohmann::json StartRecordToJson(const StartRecord& start);
Result<StartRecord> StartRecordFromJson(const nlohmann::json& json);

// Why an ok cold record is INVALID: its pages were not all dropped. Empty otherwise.
std::string ColdStartProblem(const StartRecord& start);

}  // namespace edgebench
