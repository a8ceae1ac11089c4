// Columns of the tabular printers (table, markdown, CSV), each defined once: a header that names
// its unit and the cell it shows for a record. Columns come in sets, one per scenario, registered
// in one place (columns.cc) and chosen by the record's `scenario` field, so one printer prints
// records of any scenario, mixed. A new scenario adds its set there; nothing in the printers.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "record/record.h"

namespace edgebench {

// The cell of a value a record does not have: a case that did not measure, a percentile with
// too few samples. A column that is all kNoValue says nothing, so table and markdown drop it.
inline constexpr const char* kNoValue = "-";

struct Column {
  std::string header;  // with its unit where it has one: "p50 (ms)", "decode (tok/s)"
  std::function<std::string(const Record&)> cell;  // kNoValue where the record has no value
  bool numeric = false;  // right-aligned in the table, "---:" in markdown
  // How soon a table too wide for the terminal leaves it out (report/text_table.h): 0 never
  // (what a row is), 1 a result, 2 a detail. Set by header in one place (columns.cc).
  int rank = 1;
};

// The columns a record of `scenario` is printed with, in order. A scenario with no registered
// set gets the columns every record has (model, target, status, verdict).
const std::vector<Column>& ColumnsForScenario(std::string_view scenario);

// Every header of every scenario's set (duplicates included).
std::vector<std::string> ScenarioColumnHeaders();

// The scenarios with a registered column set, in registration order.
std::vector<std::string> ScenariosWithColumns();

// A number with at least 3 significant digits whatever its magnitude and at least one decimal:
// 0.00123, 0.512, 1.23, 16.1, 196.3, 31706.4. Microsecond latencies printed in ms stay
// readable (0.00123, not 0.001). "0" for zero; the C locale's decimal point always.
std::string FormatSignificant(double value);

// The `settled at q` column of `run`, explained for `edgebench run --help`.
extern const char kSettleColumnHelp[];

}  // namespace edgebench
