#include "report/conformance_tables.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace edgebench {

namespace {

// A table as text (text_table.h) or as Markdown.
std::string RenderConformanceTable(const std::vector<TextColumn>& columns, const std::vector<TextRow>& rows,
                   const ConformanceTableOptions& o) {
  if (!o.markdown) return RenderTextTable(columns, rows, o.layout);
  auto escape = [](std::string text) {
    std::string out;
    for (char c : text) {
      if (c == '|') out += "\\|";
      else if (c == '\n' || c == '\r') out += ' ';
      else out += c;
    }
    return out;
  };
  std::string out = "|";
  for (const TextColumn& c : columns) out += " " + escape(c.header) + " |";
  out += "\n|";
  for (const TextColumn& c : columns) out += c.numeric ? " ---: |" : " --- |";
  out += "\n";
  for (const TextRow& row : rows) {
    out += "|";
    for (const std::string& cell : row.cells) out += " " + escape(cell) + " |";
    out += "\n";
  }
  return out;
}

struct ConformanceCounts {
  std::map<ConformanceState, int> states;
  int fell_back = 0;  // passes on the CPU of an accelerator target
  int testable() const {
    int n = 0;
    for (const auto& [state, count] : states) n += state == ConformanceState::kUntestable ? 0 : count;
    return n;
  }
  int of(ConformanceState state) const {
    auto it = states.find(state);
    return it == states.end() ? 0 : it->second;
  }
  void Add(const ConformanceCell& cell) {
    ++states[cell.state];
    if (cell.state == ConformanceState::kPass && cell.fell_back) ++fell_back;
  }
};

// "3 wrong, 1 crashed": the states other than pass and untestable.
std::string ConformanceOthersText(const ConformanceCounts& counts) {
  std::string text;
  for (ConformanceState state : AllConformanceStates()) {
    if (state == ConformanceState::kPass || state == ConformanceState::kUntestable) continue;
    if (const int n = counts.of(state)) text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + ConformanceStateName(state);
  }
  return text;
}

// An operator's (or family's) cell: "pass", "pass (cpu)", "3/4 pass, 1 wrong", "untestable".
std::string ConformanceSummaryText(const ConformanceCounts& counts, bool whole_words) {
  const int testable = counts.testable();
  if (testable == 0) return counts.of(ConformanceState::kUntestable) ? "untestable" : "";
  const int pass = counts.of(ConformanceState::kPass);
  std::string cpu;
  if (counts.fell_back) cpu = counts.fell_back == pass ? " (cpu)" : " (" + std::to_string(counts.fell_back) + " on cpu)";
  if (pass == testable && whole_words) return "pass" + cpu;
  if (pass == 0 && whole_words) {
    // One state only: its name.
    const std::string others = ConformanceOthersText(counts);
    for (ConformanceState state : AllConformanceStates()) {
      if (counts.of(state) == testable) return ConformanceStateName(state);
    }
    return others;
  }
  std::string text = std::to_string(pass) + "/" + std::to_string(testable) + (whole_words ? " pass" : "") + cpu;
  const std::string others = ConformanceOthersText(counts);
  return others.empty() ? text : text + ", " + others;
}

}  // namespace

std::string FormatConformanceTotals(const std::vector<ConformanceColumn>& columns, const ConformanceTableOptions& o) {
  std::vector<TextColumn> headers = {{"target", false, 0}, {"runtime", false, 1}, {"onnx", false, 2}, {"cases", true, 0}};
  for (ConformanceState state : AllConformanceStates()) headers.push_back({ConformanceStateName(state), true, 0});
  headers.push_back({"pass on cpu", true, 1});
  std::vector<TextRow> rows;
  for (const ConformanceColumn& column : columns) {
    ConformanceCounts counts;
    for (const ConformanceCell& cell : column.cells) counts.Add(cell);
    TextRow row;
    row.cells = {column.target, column.runtime + " " + column.runtime_version, column.onnx_version,
                 std::to_string(column.cells.size())};
    for (ConformanceState state : AllConformanceStates()) row.cells.push_back(std::to_string(counts.of(state)));
    row.cells.push_back(column.target.find(":cpu") != std::string::npos && counts.fell_back == 0
                            ? "-"
                            : std::to_string(counts.fell_back));
    rows.push_back(std::move(row));
  }
  return RenderConformanceTable(headers, rows, o);
}

std::string FormatConformanceFamilies(const std::vector<ConformanceColumn>& columns,
                                      const ConformanceTableOptions& o) {
  std::vector<TextColumn> headers = {{"family", false, 0}, {"ops", true, 1}, {"cases", true, 1}};
  for (const ConformanceColumn& column : columns) headers.push_back({column.target, false, 0});
  std::map<std::string, std::set<std::string>> ops;
  std::map<std::string, std::set<std::string>> cases;
  std::vector<std::map<std::string, ConformanceCounts>> counts(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    for (const ConformanceCell& cell : columns[c].cells) {
      ops[cell.family].insert(cell.op);
      cases[cell.family].insert(cell.case_name);
      counts[c][cell.family].Add(cell);
    }
  }
  std::vector<TextRow> rows;
  for (const auto& [family, names] : cases) {
    TextRow row;
    row.cells = {family, std::to_string(ops[family].size()), std::to_string(names.size())};
    for (size_t c = 0; c < columns.size(); ++c) row.cells.push_back(ConformanceSummaryText(counts[c][family], false));
    rows.push_back(std::move(row));
  }
  return RenderConformanceTable(headers, rows, o);
}

std::string OperatorConformance(const ConformanceColumn& column, const std::string& op) {
  ConformanceCounts counts;
  for (const ConformanceCell& cell : column.cells) {
    if (cell.op == op) counts.Add(cell);
  }
  return ConformanceSummaryText(counts, true);
}

std::string FormatConformanceOperators(const std::vector<ConformanceColumn>& columns, bool only_failing,
                                       const ConformanceTableOptions& o) {
  std::vector<TextColumn> headers = {{"operator", false, 0}, {"family", false, 2}};
  for (const ConformanceColumn& column : columns) headers.push_back({column.target, false, 0});
  std::map<std::string, std::string> family_of;
  for (const ConformanceColumn& column : columns) {
    for (const ConformanceCell& cell : column.cells) family_of[cell.op] = cell.family;
  }
  std::vector<TextRow> rows;
  for (const auto& [op, family] : family_of) {
    TextRow row;
    row.cells = {op, family};
    bool failing = false;
    for (const ConformanceColumn& column : columns) {
      const std::string text = OperatorConformance(column, op);
      failing = failing || (text.rfind("pass", 0) != 0 && text != "untestable" && !text.empty());
      row.cells.push_back(text.empty() ? "-" : text);
    }
    if (!only_failing || failing) rows.push_back(std::move(row));
  }
  return RenderConformanceTable(headers, rows, o);
}

std::string FormatConformanceFailures(const std::vector<ConformanceColumn>& columns, const ConformanceTableOptions& o) {
  std::vector<TextColumn> headers = {{"case", false, 0}, {"target", false, 0}, {"state", false, 0},
                                     {"ran on", false, 2}, {"detail", false, 1, true}};
  std::vector<TextRow> rows;
  for (const ConformanceColumn& column : columns) {
    for (const ConformanceCell& cell : column.cells) {
      if (cell.state == ConformanceState::kPass || cell.state == ConformanceState::kUntestable) continue;
      rows.push_back({{cell.case_name, column.target, ConformanceStateName(cell.state),
                       cell.ran_on.empty() ? "-" : cell.ran_on, cell.detail},
                      ""});
    }
  }
  if (rows.empty()) return "";
  return RenderConformanceTable(headers, rows, o);
}

std::string ConformanceChange::Kind() const {
  const bool was = base.state == ConformanceState::kPass;
  const bool is = now.state == ConformanceState::kPass;
  if (was && !is) return "broke";
  if (!was && is) return "fixed";
  return "changed";
}

ConformanceDiff DiffConformance(const std::vector<ConformanceColumn>& base, const std::vector<ConformanceColumn>& now) {
  ConformanceDiff diff;
  // The last column of each target (a store may hold several runtime versions of one target).
  auto latest = [](const std::vector<ConformanceColumn>& columns) {
    std::map<std::string, const ConformanceColumn*> by_target;
    for (const ConformanceColumn& column : columns) by_target[column.target] = &column;
    return by_target;
  };
  const auto before = latest(base);
  const auto after = latest(now);
  for (const auto& [target, column] : before) {
    auto it = after.find(target);
    if (it == after.end()) {
      diff.notes.push_back(target + " is in the base run only");
      continue;
    }
    diff.targets_compared.push_back(target);
    std::map<std::string, const ConformanceCell*> cells_after;
    for (const ConformanceCell& cell : it->second->cells) cells_after[cell.case_name] = &cell;
    int only_base = 0;
    for (const ConformanceCell& cell : column->cells) {
      auto found = cells_after.find(cell.case_name);
      if (found == cells_after.end()) {
        ++only_base;
        continue;
      }
      if (found->second->state != cell.state) {
        diff.changes.push_back({target, cell.case_name, cell.op, column->runtime_version, it->second->runtime_version,
                                cell, *found->second});
      }
      cells_after.erase(found);
    }
    if (only_base) diff.notes.push_back(target + ": " + std::to_string(only_base) + " cases are in the base run only");
    if (!cells_after.empty()) {
      diff.notes.push_back(target + ": " + std::to_string(cells_after.size()) + " cases are in the new run only");
    }
  }
  for (const auto& [target, column] : after) {
    if (!before.count(target)) diff.notes.push_back(target + " is in the new run only");
  }
  std::stable_sort(diff.changes.begin(), diff.changes.end(), [](const ConformanceChange& a, const ConformanceChange& b) {
    return a.Kind() < b.Kind();  // broke, changed, fixed
  });
  return diff;
}

std::string FormatConformanceDiff(const ConformanceDiff& diff, const ConformanceTableOptions& o) {
  std::ostringstream out;
  std::map<std::string, int> kinds;
  for (const ConformanceChange& change : diff.changes) ++kinds[change.Kind()];
  out << (o.markdown ? "### " : "") << "conformance: " << diff.changes.size() << " cases changed on "
      << diff.targets_compared.size() << " targets (" << kinds["broke"] << " broke, " << kinds["fixed"] << " fixed, "
      << kinds["changed"] << " changed)\n\n";
  if (!diff.changes.empty()) {
    std::vector<TextColumn> headers = {{"change", false, 0}, {"target", false, 0}, {"case", false, 0},
                                       {"operator", false, 1}, {"before", false, 0}, {"after", false, 0},
                                       {"detail", false, 1, true}};
    std::vector<TextRow> rows;
    for (const ConformanceChange& change : diff.changes) {
      const std::string before = ConformanceStateName(change.base.state) + " (" + change.base_version + ")";
      const std::string after = ConformanceStateName(change.now.state) + " (" + change.new_version + ")";
      const std::string& detail = change.now.state == ConformanceState::kPass ? change.base.detail : change.now.detail;
      rows.push_back({{change.Kind(), change.target, change.case_name, change.op, before, after, detail}, ""});
    }
    out << RenderConformanceTable(headers, rows, o);
  }
  for (const std::string& note : diff.notes) out << "\nnote: " << note;
  if (!diff.notes.empty()) out << "\n";
  return out.str();
}

nlohmann::json ConformanceDiffToJson(const ConformanceDiff& diff) {
  nlohmann::json changes = nlohmann::json::array();
  for (const ConformanceChange& change : diff.changes) {
    changes.push_back({{"change", change.Kind()},
                       {"target", change.target},
                       {"case", change.case_name},
                       {"op", change.op},
                       {"base", ConformanceCellToJson(change.base)},
                       {"new", ConformanceCellToJson(change.now)}});
  }
  return {{"kind", "conformance_diff"}, {"targets", diff.targets_compared}, {"changes", changes}, {"notes", diff.notes}};
}

}  // namespace edgebench
