// Printers: one record schema, many formats. Each writes to an injected stream; results go
// to stdout, diagnostics to stderr.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "core/status.h"
#include "report/record.h"

namespace edgebench {

class RecordPrinter {
 public:
  virtual ~RecordPrinter() = default;
  virtual void Begin() {}
  virtual void Print(const Record& record) = 0;
  virtual void End() {}
};

// "table" (default), "markdown", "csv", "json" (one JSON array), "jsonl".
Result<std::unique_ptr<RecordPrinter>> MakePrinter(const std::string& format, std::ostream& out);

// A CSV cell, quoted when it holds a comma, quote or newline.
std::string CsvCell(const std::string& cell);

// Why a record did not measure, or its first invalid reason, on one line ("" when VALID).
std::string OneLineWhy(const Record& record);

// The cells every tabular printer shows, in order, and their values for a record.
std::vector<std::string> TableHeader();
std::vector<std::string> TableRow(const Record& record);

}  // namespace edgebench
