#include "report/printers.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <vector>

#include "core/strings.h"
#include "report/precision_note.h"
#include "report/stage_columns.h"
#include "report/metric_pivot.h"
#include "report/stage_pivot.h"
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
  std::optional<RowPrecision> precision;  // measured rows: what they computed at
};

struct ColumnHead {
  std::string header;
  bool numeric = false;
  int rank = 1;
};

std::vector<ColumnHead> HeadsOf(const std::string& scenario) {
  std::vector<ColumnHead> heads;
  for (const Column& column : ColumnsForScenario(scenario)) {
    heads.push_back({column.header, column.numeric, column.rank});
  }
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

std::string PrecisionNote(const Section& section) {
  std::vector<RowPrecision> measured;
  for (const Row& row : section.rows) {
    if (row.precision) measured.push_back(*row.precision);
  }
  return MixedPrecisionNote(measured);
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
    Row row{record.scenario, {}, OneLineWhy(record), std::nullopt};
    if (record.status == CaseStatus::kOk) row.precision = RowPrecision{record.requested_target, ComputePrecisionOf(record)};
    for (const Column& column : ColumnsForScenario(record.scenario)) {
      row.cells.push_back(column.cell(record));
    }
    auto section = std::find_if(sections_.begin(), sections_.end(),
                                [&](const Section& s) { return s.scenario == record.scenario; });
    if (section == sections_.end()) {
      section = sections_.insert(sections_.end(), Section{record.scenario, {}, HeadsOf(record.scenario)});
    }
    section->rows.push_back(std::move(row));
    if (!metric_.empty()) metric_cells_.push_back(MetricPivotCellOf(record, metric_));
    if (record.pipeline) {
      pivot_.push_back(StagePivotCaseOf(record));
      for (const PipelineStageRecord& stage : record.pipeline->stages) {
        Row stage_row{record.scenario, {}, "", std::nullopt};
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
      for (const StageColumn& column : PipelineStageColumns()) stages.heads.push_back({column.header, column.numeric, 1});
      sections.push_back(std::move(stages));
    }
    Render(sections);
    out_.flush();
  }

 protected:
  virtual void Render(const std::vector<Section>& sections) = 0;
  std::ostream& out_;
  std::vector<StagePivotCase> pivot_;  // the pipeline cases' stages, for the table's view
  std::string metric_;                 // --pivot: the metric whose cells are kept
  std::vector<MetricPivotCell> metric_cells_;

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
  TablePrinter(std::ostream& out, TableLayout layout) : SectionedPrinter(out), layout_(std::move(layout)) {
    metric_ = layout_.pivot;
  }

 private:
  // The cases' tables, then each pipeline's stages with a column per scenario (stage_pivot.h)
  // rather than the long form of a row per stage per case; with --pivot, the metric's matrix
  // (metric_pivot.h) instead of both.
  void Render(const std::vector<Section>& sections) override {
    if (!metric_.empty()) {
      if (!metric_cells_.empty()) out_ << RenderMetricPivot(metric_cells_, metric_, layout_);
      return;
    }
    std::vector<Section> cases;
    for (const Section& section : sections) {
      if (!section.stages) cases.push_back(section);
    }
    SectionedPrinter::Render(cases);
    if (!pivot_.empty()) out_ << "\n" << RenderStagePivot(pivot_, layout_);
  }
  void RenderSection(const Section& section) override {
    std::vector<TextColumn> columns;
    const std::vector<size_t> kept = ColumnsWithValues(section);
    for (size_t i : kept) columns.push_back({section.heads[i].header, section.heads[i].numeric, section.heads[i].rank});
    std::vector<TextRow> rows;
    for (const Row& row : section.rows) {
      TextRow text{{}, row.why};
      for (size_t i : kept) text.cells.push_back(row.cells[i]);
      rows.push_back(std::move(text));
    }
    if (const std::string note = PrecisionNote(section); !note.empty()) {
      out_ << WrappedParagraph("", note, layout_.width);
    }
    out_ << RenderTextTable(columns, rows, layout_);
  }
  TableLayout layout_;
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
    if (const std::string note = PrecisionNote(section); !note.empty()) out_ << MarkdownCell(note) << "\n\n";
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

std::vector<std::string> AllColumnHeaders() {
  std::vector<std::string> headers = ScenarioColumnHeaders();
  for (const StageColumn& column : PipelineStageColumns()) headers.push_back(column.header);
  return headers;
}

Result<std::unique_ptr<RecordPrinter>> MakePrinter(const std::string& format, std::ostream& out,
                                                   const TableLayout& layout) {
  if (format == "table") return std::unique_ptr<RecordPrinter>(new TablePrinter(out, layout));
  // Every other format prints every column: an option that would shape it is refused, not dropped.
  if (!layout.columns.empty() || !layout.pivot.empty()) {
    return Status::Error(std::string(layout.pivot.empty() ? "--columns" : "--pivot") + " shapes the table; --format " +
                         format + " prints every column (leave it out, or use --format table)");
  }
  if (format == "markdown") return std::unique_ptr<RecordPrinter>(new MarkdownPrinter(out));
  if (format == "csv") return std::unique_ptr<RecordPrinter>(new CsvPrinter(out));
  if (format == "json") return std::unique_ptr<RecordPrinter>(new JsonArrayPrinter(out));
  if (format == "jsonl") return std::unique_ptr<RecordPrinter>(new JsonLinesPrinter(out));
  return Status::Error("unknown output format '" + format +
                       "'; use one of: table, markdown, csv, json, jsonl");
}

}  // namespace edgebench
