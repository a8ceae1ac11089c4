#include "report/printers.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <vector>

#include "core/strings.h"
#include "report/stage_columns.h"
#include "record/record_json.h"

namespace edgebench {

namespace {

// A number as a spreadsheet reads one ("-1.5", "+3", "2e-06"): a value, never a formula.
bool IsPlainNumber(const std::string& cell) {
  if (cell.empty()) return false;
  char* end = nullptr;
  errno = 0;
  std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size() && !std::isspace(static_cast<unsigned char>(cell[0]));
}

}  // namespace

bool CsvCellCouldBeAFormula(const std::string& cell) {
  if (cell.empty() || cell == "-") return false;  // "-": no value, not a formula
  const char first = cell[0];
  const bool formula_start = first == '=' || first == '+' || first == '-' || first == '@' ||
                             first == '\t' || first == '\r';
  return formula_start && !IsPlainNumber(cell);
}

std::string CsvCell(const std::string& cell) {
  const bool formula = CsvCellCouldBeAFormula(cell);
  if (!formula && cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string quoted = formula ? "\"'" : "\"";
  for (char ch : cell) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

std::string MarkdownCell(const std::string& cell) {
  std::string escaped;
  for (char ch : cell) {
    if (ch == '|') {
      escaped += "\\|";
    } else {
      escaped += ch == '\n' || ch == '\r' ? ' ' : ch;
    }
  }
  return escaped;
}

std::string OneLineWhy(const Record& r) {
  std::string why = r.status != CaseStatus::kOk ? r.error
                    : !r.invalid_reasons.empty() ? r.invalid_reasons.front()
                    // A valid result at a shape nobody chose must still say so in the table.
                    : !r.dims_defaulted.empty()
                        ? "free dimensions bound to 1 (no --dim named them): " + Join(r.dims_defaulted, ", ")
                        : "";
  for (char& c : why) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return why;
}

namespace {

// One record's cells, computed when it is printed so that the record itself is not kept.
struct Row {
  std::string scenario;
  std::vector<std::string> cells;  // one per ColumnsForScenario(scenario)
  std::string why;
};

struct ColumnHead {
  std::string header;
  bool numeric = false;
};

std::vector<ColumnHead> HeadsOf(const std::string& scenario) {
  std::vector<ColumnHead> heads;
  for (const Column& column : ColumnsForScenario(scenario)) heads.push_back({column.header, column.numeric});
  return heads;
}

// Rows of one scenario, printed as one table; or the stage rows of the pipeline cases
// (report/stage_columns.h), printed by table and markdown after the cases.
struct Section {
  std::string scenario;
  std::vector<Row> rows;
  std::vector<ColumnHead> heads;
  bool stages = false;
};

bool IsEmptyCell(const std::string& cell) { return cell.empty() || cell == kNoValue; }

// Indices of the columns that have a value in at least one row.
std::vector<size_t> ColumnsWithValues(const Section& section) {
  const size_t count = section.heads.size();
  std::vector<size_t> kept;
  for (size_t i = 0; i < count; ++i) {
    if (std::any_of(section.rows.begin(), section.rows.end(),
                    [i](const Row& row) { return !IsEmptyCell(row.cells[i]); })) {
      kept.push_back(i);
    }
  }
  return kept;
}

bool AnyWhy(const Section& section) {
  return std::any_of(section.rows.begin(), section.rows.end(),
                     [](const Row& row) { return !row.why.empty(); });
}

// Table, markdown and CSV: collect rows as records arrive, render them all at End(), when every
// cell is known (column widths, columns empty in every row).
class TabularPrinter : public RecordPrinter {
 public:
  explicit TabularPrinter(std::ostream& out) : out_(out) {}

  void Print(const Record& record) override {
    Row row{record.scenario, {}, OneLineWhy(record)};
    for (const Column& column : ColumnsForScenario(record.scenario)) {
      row.cells.push_back(column.cell(record));
    }
    auto section = std::find_if(sections_.begin(), sections_.end(),
                                [&](const Section& s) { return s.scenario == record.scenario; });
    if (section == sections_.end()) {
      section = sections_.insert(sections_.end(), Section{record.scenario, {}, HeadsOf(record.scenario)});
    }
    section->rows.push_back(std::move(row));
    if (record.pipeline) {
      for (const PipelineStageRecord& stage : record.pipeline->stages) {
        Row stage_row{record.scenario, {}, ""};
        for (const StageColumn& column : PipelineStageColumns()) stage_row.cells.push_back(column.cell(record, stage));
        stages_.rows.push_back(std::move(stage_row));
      }
    }
  }

  void End() override {
    std::vector<Section> sections = sections_;
    if (!stages_.rows.empty()) {
      Section stages = stages_;
      stages.scenario = "pipeline stages";
      stages.stages = true;
      for (const StageColumn& column : PipelineStageColumns()) stages.heads.push_back({column.header, column.numeric});
      sections.push_back(std::move(stages));
    }
    Render(sections);
    out_.flush();
  }

 protected:
  virtual void Render(const std::vector<Section>& sections) = 0;
  std::ostream& out_;

 private:
  std::vector<Section> sections_;  // in the order their scenarios first appeared
  Section stages_;                 // the pipeline cases' stage rows
};

// Sections one after another, each under a title line when there is more than one.
class SectionedPrinter : public TabularPrinter {
 public:
  using TabularPrinter::TabularPrinter;

 protected:
  void Render(const std::vector<Section>& sections) override {
    for (size_t i = 0; i < sections.size(); ++i) {
      if (i > 0) out_ << "\n";
      if (sections.size() > 1) Title(sections[i].scenario);

      RenderSection(sections[i]);
    }
  }
  virtual void Title(const std::string& scenario) { out_ << "scenario: " << scenario << "\n"; }
  virtual void RenderSection(const Section& section) = 0;
};

class TablePrinter : public SectionedPrinter {
 public:
  using SectionedPrinter::SectionedPrinter;

 private:
  void RenderSection(const Section& section) override {
    const std::vector<ColumnHead>& columns = section.heads;
    const std::vector<size_t> kept = ColumnsWithValues(section);
    std::vector<size_t> widths;
    for (size_t i : kept) {
      size_t width = columns[i].header.size();
      for (const Row& row : section.rows) width = std::max(width, row.cells[i].size());
      widths.push_back(width);
    }
    auto line = [&](auto cell_of) {
      std::string text;
      for (size_t k = 0; k < kept.size(); ++k) {
        const std::string cell = cell_of(kept[k]);
        const std::string padding(widths[k] - cell.size(), ' ');
        if (k > 0) text += "  ";
        text += columns[kept[k]].numeric ? padding + cell : cell + padding;
      }
      text.erase(text.find_last_not_of(' ') + 1);
      out_ << text << "\n";
    };
    line([&](size_t i) { return columns[i].header; });
    for (const Row& row : section.rows) {
      line([&](size_t i) { return row.cells[i]; });
      if (!row.why.empty()) out_ << "    ^ " << row.why << "\n";
    }
  }
};

class MarkdownPrinter : public SectionedPrinter {
 public:
  using SectionedPrinter::SectionedPrinter;

 private:
  // Markdown needs a blank line between a paragraph and a table.
  void Title(const std::string& scenario) override {
    out_ << "scenario: " << MarkdownCell(scenario) << "\n\n";
  }
  void RenderSection(const Section& section) override {
    const std::vector<ColumnHead>& columns = section.heads;
    const std::vector<size_t> kept = ColumnsWithValues(section);
    const bool why = AnyWhy(section);
    auto line = [&](auto cell_of, const std::string& why_cell) {
      out_ << "|";
      for (size_t i : kept) out_ << " " << MarkdownCell(cell_of(i)) << " |";
      if (why) out_ << " " << MarkdownCell(why_cell) << " |";
      out_ << "\n";
    };
    line([&](size_t i) { return columns[i].header; }, "why");
    line([&](size_t i) { return std::string(columns[i].numeric ? "---:" : "---"); }, "---");
    for (const Row& row : section.rows) line([&](size_t i) { return row.cells[i]; }, row.why);
  }
};

// Every scenario's columns merged into one header: a header shared by several sets (model,
// target, status, verdict) is one column; a set's own columns go after the shared column that
// precedes them in the set, so each set keeps its order.
std::vector<std::string> MergedHeaders(const std::vector<Section>& sections) {
  std::vector<std::string> merged;
  for (const Section& section : sections) {
    size_t insert_at = 0;
    for (const Column& column : ColumnsForScenario(section.scenario)) {
      const auto found = std::find(merged.begin(), merged.end(), column.header);
      if (found != merged.end()) {
        insert_at = static_cast<size_t>(found - merged.begin()) + 1;
      } else {
        merged.insert(merged.begin() + static_cast<std::ptrdiff_t>(insert_at), column.header);
        ++insert_at;
      }
    }
  }
  return merged;
}

class CsvPrinter : public TabularPrinter {
 public:
  using TabularPrinter::TabularPrinter;

 private:
  void Render(const std::vector<Section>& all) override {
    // One table of cases: the stage rows are the JSON's (a CSV has one header).
    std::vector<Section> sections;
    for (const Section& section : all) {
      if (!section.stages) sections.push_back(section);
    }
    if (sections.empty()) return;
    const std::vector<std::string> headers = MergedHeaders(sections);
    const auto target = std::find(headers.begin(), headers.end(), "target");
    const auto scenario_at = target == headers.end() ? 0 : target - headers.begin() + 1;
    // The scenario after `target`, `why` last: columns of their own, not of any set.
    auto line = [&](std::vector<std::string> cells, const std::string& scenario,
                    const std::string& why) {
      cells.insert(cells.begin() + scenario_at, scenario);
      cells.push_back(why);
      for (size_t i = 0; i < cells.size(); ++i) out_ << (i > 0 ? "," : "") << CsvCell(cells[i]);
      out_ << "\n";
    };
    line(headers, "scenario", "why");
    for (const Section& section : sections) {
      const std::vector<Column>& columns = ColumnsForScenario(section.scenario);
      for (const Row& row : section.rows) {
        std::vector<std::string> cells;
        for (const std::string& header : headers) {
          const auto column = std::find_if(columns.begin(), columns.end(),
                                           [&](const Column& c) { return c.header == header; });
          cells.push_back(column == columns.end()
                              ? std::string(kNoValue)
                              : row.cells[static_cast<size_t>(column - columns.begin())]);
        }
        line(std::move(cells), row.scenario, row.why);
      }
    }
  }
};

class JsonArrayPrinter : public RecordPrinter {
 public:
  explicit JsonArrayPrinter(std::ostream& out) : out_(out) {}
  void Print(const Record& r) override { records_.push_back(RecordToJson(r)); }
  void End() override { out_ << records_.dump(2) << "\n"; }

 private:
  std::ostream& out_;
  nlohmann::json records_ = nlohmann::json::array();
};

class JsonLinesPrinter : public RecordPrinter {
 public:
  explicit JsonLinesPrinter(std::ostream& out) : out_(out) {}
  void Print(const Record& r) override { out_ << RecordToJson(r).dump() << "\n" << std::flush; }

 private:
  std::ostream& out_;
};

}  // namespace

Result<std::unique_ptr<RecordPrinter>> MakePrinter(const std::string& format, std::ostream& out) {
  if (format == "table") return std::unique_ptr<RecordPrinter>(new TablePrinter(out));
  if (format == "markdown") return std::unique_ptr<RecordPrinter>(new MarkdownPrinter(out));
  if (format == "csv") return std::unique_ptr<RecordPrinter>(new CsvPrinter(out));
  if (format == "json") return std::unique_ptr<RecordPrinter>(new JsonArrayPrinter(out));
  if (format == "jsonl") return std::unique_ptr<RecordPrinter>(new JsonLinesPrinter(out));
  return Status::Error("unknown output format '" + format +
                       "'; use one of: table, markdown, csv, json, jsonl");
}

}  // namespace edgebench
