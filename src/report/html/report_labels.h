// What every section of the HTML report shares: a case's label and the thinning of a long
// series, below the sections (report_data builds the page's data from them and the sections).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

// "vit?fp16 ort:cpu": a model (and variant) on a target, where scenarios are beside the point.
std::string ModelOnTarget(const Record& record);

// "vit?fp16 ort:cpu multi-stream:4 batch=2": what a case is called in tables and legends.
std::string ReportCaseLabel(const Record& record);

// Each record's label, unique among `records`: cases whose ReportCaseLabel is the same are told
// apart by what differs between them, first found first: the target options in force
// ("threads=1"), the round ("round 2"), the time they started ("12-06 23:10:05"), and last
// their order ("#2"). A chart's legend and a table's rows so never show two runs as one.
class CaseLabels {
 public:
  CaseLabels() = default;
  explicit CaseLabels(const std::vector<Record>& records);
  // The record's unique label; ReportCaseLabel for a record that was not among `records`.
  std::string operator()(const Record& record) const;

 private:
  std::map<std::string, std::string> by_id_;
};

// Every `stride`-th index of [0, n) and the last, so that at most `max_points` remain.
std::vector<size_t> ThinnedIndices(size_t n, size_t max_points);

}  // namespace edgebench
