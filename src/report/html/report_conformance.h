// The report's conformance section (`edgebench conformance` stores): per target its totals, and
// the operator x target matrix with every case behind each cell, for the page to filter.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "record/conformance_cell.h"

namespace edgebench {

// {"columns": [{label, target, runtime, runtime_version, onnx_version, states: {state: n},
// fell_back}], "operators": [{op, family, cells: [text per column], cases: [[name, state per
// column, detail per column]...]}]}; null when there are no cells.
nlohmann::json ConformanceSection(const std::vector<ConformanceCell>& cells);

}  // namespace edgebench
