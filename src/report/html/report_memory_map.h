// The report memory section's memory maps and leak sites (docs/report.md, docs/monitoring.md):
// for each case run with --memory-map, its resident memory at each snapshot split into groups
// (the model's files, other files: the runtimes' libraries, heap and anonymous memory, stacks,
// shared memory, devices, the kernel's), drawn as stacked bars per phase; for each case run with
// --leak-sites, its sites that grew, with their rates and verdicts. Null when none has either.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"
#include "report/html/report_labels.h"

namespace edgebench {

// {"groups": [names], "maps": [{label, moments: [..], mb: [[per group] per moment], weights:
// [explanations]}], "leak_sites": [{label, function, library, per_1k, low_per_1k, high_per_1k,
// grown_bytes, leak}], "leak_reasons": [{label, reason}]}.
nlohmann::json MemoryMapSection(const std::vector<Record>& records, const CaseLabels& labels);

}  // namespace edgebench
