// A Chrome trace (the JSON Trace Event Format that ui.perfetto.dev and chrome://tracing open) of
// records: each case a process, its queries as spans on one track per stream (warm-up and
// measured apart), language-model requests with their prefill and decode, phase and stage
// boundaries as instants, the device monitor's series as counters and its throttling events as
// spans. Times are microseconds on each case's own harness clock, its earliest event at 0.
// (docs/trace.md)
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/record.h"

namespace edgebench {

// Query spans kept per record at most; past it the trace says how many it left out.
inline constexpr size_t kTraceMaxQueries = 200'000;

nlohmann::json TraceFromRecords(const std::vector<Record>& records);

// Writes the trace to `path` whole or not at all (a temporary file renamed over it); the error
// names the file and why.
Status WriteTrace(const std::vector<Record>& records, const std::string& path);

}  // namespace edgebench
