#include "report/metric_pivot.h"

#include <algorithm>
#include <map>

#include "report/columns.h"

namespace edgebench {

MetricPivotCell MetricPivotCellOf(const Record& r, const std::string& metric) {
  MetricPivotCell cell{r.model + (r.variant.empty() ? "" : "?" + r.variant), r.requested_target, r.scenario, "",
                       kNoValue, r.valid};
  for (const Column& column : ColumnsForScenario(r.scenario)) {
    if (!ColumnNameMatches(metric, column.header)) continue;
    cell.header = column.header;
    cell.value = column.cell(r);
    break;
  }
  return cell;
}

std::string RenderMetricPivot(const std::vector<MetricPivotCell>& cells, const std::string& metric,
                              const TableLayout& layout) {
  std::vector<std::pair<std::string, std::string>> rows;  // (model, target), in order of appearance
  std::vector<std::string> scenarios;
  std::map<std::pair<std::pair<std::string, std::string>, std::string>, const MetricPivotCell*> latest;
  std::string header;
  size_t repeated = 0, invalid = 0;
  for (const MetricPivotCell& c : cells) {
    const auto row = std::make_pair(c.model, c.target);
    if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
    if (std::find(scenarios.begin(), scenarios.end(), c.scenario) == scenarios.end()) scenarios.push_back(c.scenario);
    const MetricPivotCell*& kept = latest[{row, c.scenario}];
    if (kept != nullptr) ++repeated;
    kept = &c;
    if (header.empty()) header = c.header;
  }
  std::vector<TextColumn> columns = {{"model", false, 0}, {"target", false, 0}};
  for (const std::string& scenario : scenarios) columns.push_back({scenario, true, 1});
  std::vector<TextRow> text_rows;
  for (const auto& row : rows) {
    TextRow text{{row.first, row.second}, ""};
    for (const std::string& scenario : scenarios) {
      const auto found = latest.find({row, scenario});
      if (found == latest.end()) {
        text.cells.push_back("");
        continue;
      }
      const MetricPivotCell& c = *found->second;
      const bool marked = !c.valid && c.value != kNoValue;
      invalid += marked ? 1 : 0;
      text.cells.push_back(c.value + (marked ? "*" : ""));
    }
    text_rows.push_back(std::move(text));
  }
  std::string title = (header.empty() ? metric : header) + " by target and scenario";
  if (invalid > 0) title += "; * marks an INVALID case";
  if (repeated > 0) title += "; a case run more than once shows its latest run (" + std::to_string(repeated) + " earlier)";
  return WrappedParagraph("", title + ":", layout.width) + RenderTextTable(columns, text_rows, {layout.width, {}, ""});
}

}  // namespace edgebench
