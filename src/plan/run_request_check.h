// What `edgebench run`'s flags and a suite file's `settings:` both ask for, checked by one
// function, so that the two accept and refuse the same requests with the same reasons.
#pragma once

#include <functional>
#include <set>
#include <string>

#include "core/status.h"
#include "plan/plan.h"

namespace edgebench {

// The settings a request can give explicitly, by their suite-file key: "sessions",
// "concurrency", "batch", "streams", "p99_bound_ms", "find_peak", "min_queries", "input_pool".
// How a key was written by the user: "--p99-bound-ms" on the command line,
// "settings: p99_bound_ms" in a suite file; the key "scenario" names the list of scenarios
// ("--scenario", "scenarios:").
using SettingSpelling = std::function<std::string(const std::string& key)>;

// `edgebench run`'s spelling of a key ("p99_bound_ms" -> "--p99-bound-ms").
std::string FlagSpelling(const std::string& key);

// Checks, beyond each setting's own range (Validate): every scenario with the settings it runs
// with (ValidateForScenario); a load setting given explicitly (`given`, by key) that no listed
// scenario uses; a p99 bound without the queries a p99 needs; a peak search without a bound or
// without a server scenario; every model's inputs with the input pool. An error names the
// setting as `spell` writes it.
Status CheckRunRequest(const PlanRequest& request, const std::set<std::string>& given,
                       const SettingSpelling& spell);

}  // namespace edgebench
