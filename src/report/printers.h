// Printers: one record schema, many formats. Each writes to an injected stream; results go
// to stdout, diagnostics to stderr.
//
// Table, markdown and CSV print the columns of report/columns.h, chosen per record by its
// scenario, so one printer prints records of every scenario:
// - table: buffers its rows and prints them at End(), laid out by report/text_table.h to fit
//   the layout's width (least important columns left out and said so, numbers right-aligned);
//   why a case failed or is INVALID is a numbered footnote under the table. Records of several
//   scenarios print as one table per scenario, in the order the scenarios first appear, each
//   under a "scenario: NAME" line.
// - markdown: the table's layout as a GitHub table, with a `why` column; '|' in a cell is
//   escaped and line breaks become spaces (MarkdownCell).
// - CSV: one table whatever the scenarios: every column of every scenario printed, in the
//   scenarios' order, a `scenario` column after `target` and `why` last; cells quoted per
//   RFC 4180, formulas neutralised (CsvCell); lines end in "\n". Also printed at End().
// Empty columns: table and markdown drop a column whose cell is "-" (kNoValue) or empty in
// every row of its table (e.g. TTFT p90 at 5 requests, since p90 needs 10); CSV keeps every
// column, so a program reading it sees the same header whatever the values.
// JSON (one array, at End()) and JSON lines (a line per record, flushed) print whole records
// (RecordToJson).
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "core/status.h"
#include "report/columns.h"
#include "report/text_table.h"
#include "record/record.h"

namespace edgebench {

class RecordPrinter {
 public:
  virtual ~RecordPrinter() = default;
  virtual void Begin() {}
  virtual void Print(const Record& record) = 0;
  virtual void End() {}
};

// "table" (default), "markdown", "csv", "json" (one JSON array), "jsonl"; for every scenario.
// `layout` is the table's (width, --columns, --pivot); the other formats print every column and
// refuse --columns and --pivot.
Result<std::unique_ptr<RecordPrinter>> MakePrinter(const std::string& format, std::ostream& out,
                                                   const TableLayout& layout = {});

// Every header a printed table can have (every scenario's, the pipeline stages'), for --columns.
std::vector<std::string> AllColumnHeaders();

// A CSV cell per RFC 4180: quoted when it holds a comma, quote, CR or LF; quotes doubled. A cell
// a spreadsheet would run as a formula (CsvCellCouldBeAFormula) is neutralised as OWASP's CSV
// injection rule says: a single quote in front, the whole cell quoted. Every CSV edgebench
// writes goes through here.
std::string CsvCell(const std::string& cell);

// The cell starts with '=', '+', '-', '@', a tab or a carriage return and is not a plain number
// ("-1.5" stays a number) nor "-" alone (no value).
bool CsvCellCouldBeAFormula(const std::string& cell);

// A markdown table cell: '|' escaped as "\|", CR and LF as spaces (a cell is one line).
std::string MarkdownCell(const std::string& cell);

// Why a record did not measure, or its first invalid reason, or, for a valid record measured
// at free dimensions bound to 1 by default, which ones; on one line ("" otherwise).
std::string OneLineWhy(const Record& record);

}  // namespace edgebench
