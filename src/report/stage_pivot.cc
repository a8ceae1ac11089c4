#include "report/stage_pivot.h"

#include <algorithm>

#include "report/columns.h"
#include "report/stage_columns.h"

namespace edgebench {

namespace {

std::string Cell(const Record& r, const PipelineStageRecord& s, const std::string& header) {
  for (const StageColumn& column : PipelineStageColumns()) {
    if (column.header == header) return column.cell(r, s);
  }
  return kNoValue;
}

}  // namespace

StagePivotCase StagePivotCaseOf(const Record& r) {
  StagePivotCase c{r.model, r.requested_target, r.scenario, {}};
  if (!r.pipeline) return c;
  for (const PipelineStageRecord& s : r.pipeline->stages) {
    c.stages.push_back({s.name, Cell(r, s, "kind"), Cell(r, s, "on"), Cell(r, s, "calls/query"),
                        Cell(r, s, "mean (ms)"), Cell(r, s, "share"), Cell(r, s, "host CPU (ms)")});
  }
  return c;
}

std::string RenderStagePivot(const std::vector<StagePivotCase>& cases, const TableLayout& layout) {
  // (model, target) groups in order of appearance.
  std::vector<std::pair<std::string, std::string>> groups;
  for (const StagePivotCase& c : cases) {
    const auto key = std::make_pair(c.model, c.target);
    if (!c.stages.empty() && std::find(groups.begin(), groups.end(), key) == groups.end()) groups.push_back(key);
  }
  std::string out;
  for (const auto& [model, target] : groups) {
    std::vector<const StagePivotCase*> runs;
    for (const StagePivotCase& c : cases) {
      if (c.model == model && c.target == target && !c.stages.empty()) runs.push_back(&c);
    }
    // Stages in the order of the first run, then any only a later one has.
    std::vector<const StagePivotCase::Stage*> stages;
    for (const StagePivotCase* run : runs) {
      for (const StagePivotCase::Stage& s : run->stages) {
        const bool known = std::any_of(stages.begin(), stages.end(),
                                       [&](const StagePivotCase::Stage* k) { return k->name == s.name; });
        if (!known) stages.push_back(&s);
      }
    }
    std::vector<TextColumn> columns = {
        {"stage", false, 0}, {"kind", false, 2}, {"on", false, 1}, {"calls/query", true, 2}};
    for (size_t k = 0; k < runs.size(); ++k) {
      // A scenario run twice keeps both: its columns say which run by their order.
      columns.push_back({runs[k]->scenario + " mean (ms)", true, 0});
      columns.push_back({"share", true, 1});
      columns.push_back({"host CPU (ms)", true, 2});
    }
    std::vector<TextRow> rows;
    for (const StagePivotCase::Stage* stage : stages) {
      TextRow row{{stage->name, stage->kind, stage->on, stage->calls}, ""};
      for (const StagePivotCase* run : runs) {
        const auto found = std::find_if(run->stages.begin(), run->stages.end(),
                                        [&](const StagePivotCase::Stage& s) { return s.name == stage->name; });
        if (found == run->stages.end()) {
          row.cells.insert(row.cells.end(), {kNoValue, kNoValue, kNoValue});
        } else {
          row.cells.insert(row.cells.end(), {found->mean_ms, found->share, found->cpu_ms});
        }
      }
      rows.push_back(std::move(row));
    }
    if (!out.empty()) out += "\n";
    out += WrappedParagraph("", "stages of " + model + " on " + target + ":", layout.width);
    out += RenderTextTable(columns, rows, {layout.width, {}, ""});
  }
  return out;
}

}  // namespace edgebench
