#include "report/html/report_conformance.h"

#include <map>
#include <set>

#include "report/conformance_tables.h"

namespace edgebench {

using nlohmann::json;

json ConformanceSection(const std::vector<ConformanceCell>& cells) {
  const std::vector<ConformanceColumn> columns = ConformanceColumns(cells);
  if (columns.empty()) return nullptr;
  json out_columns = json::array();
  // op -> case -> column -> cell
  std::map<std::string, std::string> family_of;
  std::map<std::string, std::map<std::string, std::map<size_t, const ConformanceCell*>>> by_op;
  for (size_t c = 0; c < columns.size(); ++c) {
    std::map<std::string, int> states;
    int fell_back = 0;
    for (const ConformanceCell& cell : columns[c].cells) {
      ++states[ConformanceStateName(cell.state)];
      fell_back += cell.state == ConformanceState::kPass && cell.fell_back ? 1 : 0;
      family_of[cell.op] = cell.family;
      by_op[cell.op][cell.case_name][c] = &cell;
    }
    out_columns.push_back({{"label", columns[c].Label()},
                           {"target", columns[c].target},
                           {"runtime", columns[c].runtime},
                           {"runtime_version", columns[c].runtime_version},
                           {"onnx_version", columns[c].onnx_version},
                           {"states", states},
                           {"fell_back", fell_back}});
  }
  json operators = json::array();
  for (const auto& [op, cases] : by_op) {
    json texts = json::array();
    for (const ConformanceColumn& column : columns) {
      const std::string text = OperatorConformance(column, op);
      texts.push_back(text.empty() ? "-" : text);
    }
    json case_rows = json::array();
    for (const auto& [name, per_column] : cases) {
      json states = json::array();
      json details = json::array();
      for (size_t c = 0; c < columns.size(); ++c) {
        auto it = per_column.find(c);
        if (it == per_column.end()) {
          states.push_back("-");
          details.push_back("");
          continue;
        }
        const ConformanceCell& cell = *it->second;
        states.push_back(ConformanceStateName(cell.state) +
                         (cell.state == ConformanceState::kPass && cell.fell_back ? " (cpu)" : ""));
        details.push_back(cell.detail.size() > 400 ? cell.detail.substr(0, 400) + "..." : cell.detail);
      }
      case_rows.push_back({{"name", name}, {"states", states}, {"details", details}});
    }
    operators.push_back({{"op", op}, {"family", family_of[op]}, {"cells", texts}, {"cases", case_rows}});
  }
  return {{"columns", out_columns}, {"operators", operators}};
}

}  // namespace edgebench
