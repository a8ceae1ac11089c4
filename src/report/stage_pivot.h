// The table view of pipeline stages: per pipeline case (model on target), a row per stage and,
// for each scenario it ran under, that scenario's mean, share and host CPU side by side, as the
// README shows. The long form (a row per stage per case, every stage column) stays in markdown,
// CSV and JSON.
#pragma once

#include <string>
#include <vector>

#include "record/record.h"
#include "report/text_table.h"

namespace edgebench {

// One pipeline record's stage cells, kept instead of the record.
struct StagePivotCase {
  std::string model;
  std::string target;
  std::string scenario;
  struct Stage {
    std::string name, kind, on, calls, mean_ms, share, cpu_ms;
  };
  std::vector<Stage> stages;
};

// The stage cells of a pipeline record (one without a pipeline section has no stages).
StagePivotCase StagePivotCaseOf(const Record& record);

// A titled table per (model, target), in the order they first appear, each fitted to `layout`.
std::string RenderStagePivot(const std::vector<StagePivotCase>& cases, const TableLayout& layout);

}  // namespace edgebench
