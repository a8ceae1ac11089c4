// A latency summary's JSON form, shared by the record and its sections (load, accuracy).
#pragma once

#include <nlohmann/json.hpp>

#include "stats/summary.h"

namespace edgebench {

nlohmann::json SummaryToJson(const LatencySummary& summary);

}  // namespace edgebench
