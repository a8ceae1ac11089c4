// The record's "profile" section (--profile): per-operator times over the measured runs, summed
// by operator type and by device, and the first operator executions for the trace.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/operator_profile.h"

namespace edgebench {

// `measured_ns`: the measured queries' latencies summed, for each operator's share of run time
// (0 when unknown). `unavailable`: why there is no profile (then `profile` is empty).
nlohmann::json OperatorProfileToJson(const std::optional<OperatorProfile>& profile,
                                     const std::string& unavailable, int64_t measured_ns);
// Throws nlohmann::json::exception on a malformed section.
void OperatorProfileFromJson(const nlohmann::json& j, std::optional<OperatorProfile>& profile,
                             std::string& unavailable);

// "MatMul 41%, Add 12%": the largest operator types' shares of operator time, for the table.
std::string TopOperatorsText(const OperatorProfile& profile, int count);

}  // namespace edgebench
