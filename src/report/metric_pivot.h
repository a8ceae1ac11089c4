// `--pivot METRIC`: one metric as a matrix, a row per model and target, a column per scenario
// (single-stream, multi-stream:4, server:20, ...), so a table of many cases answers one
// question at a glance. The table printer prints it instead of the cases' tables; every value
// stays in --format json and the store.
#pragma once

#include <string>
#include <vector>

#include "record/record.h"
#include "report/text_table.h"

namespace edgebench {

// One record's cell of the matrix.
struct MetricPivotCell {
  std::string model;
  std::string target;
  std::string scenario;
  std::string header;  // the metric's column header; empty when the scenario has no such column
  std::string value;   // the column's cell
  bool valid = false;
};

// The cell of `metric` (a column name, with or without its unit: ColumnNameMatches) for `record`.
MetricPivotCell MetricPivotCellOf(const Record& record, const std::string& metric);

// The matrix, fitted to `layout`'s width, under a line naming the metric. An INVALID case's
// value is marked '*'; a case run more than once shows its latest, and the line says so.
std::string RenderMetricPivot(const std::vector<MetricPivotCell>& cells, const std::string& metric,
                              const TableLayout& layout);

}  // namespace edgebench
