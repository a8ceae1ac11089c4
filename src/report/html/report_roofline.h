// The report's roofline section (docs/report.md, docs/roofline.md): every case with a roofline
// as a point on a log-log chart of operations per byte against GFLOP/s, with the memory roofs
// (bandwidth x intensity, one per measured figure the points were held to) and the compute peaks
// known; a language model gives a decode point and a prefill point. A table beside it gives each
// point's share of its roof. Null when no record has a roofline.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"
#include "report/html/report_labels.h"

namespace edgebench {

// {"roofs": [{label, gb_per_s}], "peaks": [{label, gflops}], "points": [{label, phase, intensity,
// gflops, gb_per_s, share, roof}], "omitted": [{label, reason}]}.
nlohmann::json RooflineSection(const std::vector<Record>& records, const CaseLabels& labels);

}  // namespace edgebench
