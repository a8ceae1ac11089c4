// `edgebench conformance`'s tables (docs/conformance.md): totals per target, cases by operator
// family, the operator x target matrix, the cells that did not pass, and what changed between
// two runs (`edgebench compare` of two conformance stores: which operators broke or were fixed).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/conformance_cell.h"
#include "report/text_table.h"

namespace edgebench {

struct ConformanceTableOptions {
  bool markdown = false;
  TableLayout layout;  // text tables' width
};

// One row per target: its runtime, then a count per state, and the passes whose nodes stayed on
// the CPU of an accelerator target.
std::string FormatConformanceTotals(const std::vector<ConformanceColumn>& columns, const ConformanceTableOptions& o);

// One row per operator family, one column per target: "passed/testable" and the counts of the
// other states ("3 wrong, 1 crashed"), the families in ONNX's names (math, nn, tensor, ...).
std::string FormatConformanceFamilies(const std::vector<ConformanceColumn>& columns,
                                      const ConformanceTableOptions& o);

// One row per operator, one column per target: "pass", "3/4 pass, 1 wrong", "refused", ...;
// "pass (cpu)" where the accelerator left the node to the CPU. `only_failing`: the operators
// where some target did not pass every testable case.
std::string FormatConformanceOperators(const std::vector<ConformanceColumn>& columns, bool only_failing,
                                       const ConformanceTableOptions& o);

// Every cell that is not a pass or untestable: case, target, state and detail.
std::string FormatConformanceFailures(const std::vector<ConformanceColumn>& columns, const ConformanceTableOptions& o);

// A case whose state differs between two runs of one target.
struct ConformanceChange {
  std::string target;
  std::string case_name;
  std::string op;
  std::string base_version;  // the runtime's version in each run
  std::string new_version;
  ConformanceCell base;
  ConformanceCell now;
  std::string Kind() const;  // "broke" (a pass no longer), "fixed" (a pass now) or "changed"
};

struct ConformanceDiff {
  std::vector<ConformanceChange> changes;
  std::vector<std::string> targets_compared;  // present in both
  std::vector<std::string> notes;             // targets in one run only, cases in one only
};

// The latest column of each target in BASE against NEW's.
ConformanceDiff DiffConformance(const std::vector<ConformanceColumn>& base, const std::vector<ConformanceColumn>& now);
std::string FormatConformanceDiff(const ConformanceDiff& diff, const ConformanceTableOptions& o);
nlohmann::json ConformanceDiffToJson(const ConformanceDiff& diff);

// The operator's state on a target, in one word for other tables (`coverage`'s "measured"):
// "pass", "pass (cpu)", "3/4 pass", "wrong", "refused", ... or "" when no case of the op ran there.
std::string OperatorConformance(const ConformanceColumn& column, const std::string& op);

}  // namespace edgebench
