// Printers for LLM records: one row per prompt length x generation length x target.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "report/printers.h"

namespace edgebench {

// "table" (default), "markdown", "csv"; "json" and "jsonl" print whole records.
Result<std::unique_ptr<RecordPrinter>> MakeLlmPrinter(const std::string& format, std::ostream& out);

std::vector<std::string> LlmTableHeader();
std::vector<std::string> LlmTableRow(const Record& record);

}  // namespace edgebench
