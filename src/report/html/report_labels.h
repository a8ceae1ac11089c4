// What every section of the HTML report shares: a case's label and the thinning of a long
// series, below the sections (report_data builds the page's data from them and the sections).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

// "vit?fp16 ort:cpu": a model (and variant) on a target, where scenarios are beside the point.
std::string ModelOnTarget(const Record& record);

// "vit?fp16 ort:cpu multi-stream:4 batch=2": what a case is called in tables and legends.
std::string ReportCaseLabel(const Record& record);

// Every `stride`-th index of [0, n) and the last, so that at most `max_points` remain.
std::vector<size_t> ThinnedIndices(size_t n, size_t max_points);

}  // namespace edgebench
