// The report's pipelines section (docs/report.md): for every pipeline case (record/
// pipeline_record.h), its stages' shares of the end-to-end time, drawn as one stacked bar per
// case, and each stage's distribution (p50, p90, p99, mean, host CPU, calls per query) in a
// table. Null when no record is a pipeline's.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"

namespace edgebench {

// {"stages": [every stage name, in first-seen order], "cases": [{label, harness_share,
// stages: [{name, kind, on, share, p50_ms, p90_ms, p99_ms, mean_ms, cpu_ms, calls}]}]}; a
// percentile or CPU time the record lacks is null.
nlohmann::json PipelinesSection(const std::vector<Record>& records);

}  // namespace edgebench
