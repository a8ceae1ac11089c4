// One cell of `edgebench conformance` (docs/conformance.md): one of ONNX's node test cases on one
// target, what happened and where the node ran. Plain data with its JSON form; a run stores one
// cell per line in DIR/conformance.jsonl, with a summary line per target at the end of its run.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

// What a case did on a target.
enum class ConformanceState {
  kPass,        // every output within ONNX's tolerance of the expected one
  kWrong,       // ran, and an output differs (detail: which, where, by how much)
  kRefused,     // the runtime refused the model at load (detail: its message)
  kError,       // loaded, then the runtime failed to prepare or run it (its message)
  kCrashed,     // the worker died in the case (detail: the signal)
  kTimeout,     // the case ran past --timeout and its worker was killed
  kUntestable,  // edgebench cannot pass the case's values (a sequence, a float64: detail says)
};

std::string ConformanceStateName(ConformanceState state);
Result<ConformanceState> ParseConformanceState(const std::string& name);
// Every state, in the order tables show them.
const std::vector<ConformanceState>& AllConformanceStates();

struct ConformanceCell {
  std::string target;           // canonical, as asked: "ort:xnnpack"
  std::string runtime;          // "ONNX Runtime"
  std::string runtime_version;  // "1.23.2"
  std::string onnx_version;     // of the node tests: "1.20.0"
  std::string case_name;        // "test_abs"
  std::string op;               // "Abs"
  std::string domain;           // "ai.onnx"
  std::string family;           // "math"
  bool expanded = false;        // the case runs the operator's function body, not the operator
  ConformanceState state = ConformanceState::kError;
  std::string detail;           // the message behind any state but pass
  std::optional<double> max_error;  // kWrong: the largest absolute difference (NaN where NaN met a number)
  // Where the runtime ran the case's nodes (core/placement.h's PlacementText), "?" where it
  // cannot tell; `fell_back`: the target is an accelerator and nodes stayed on the CPU, so a
  // pass says nothing of the device.
  std::string ran_on;
  bool fell_back = false;
  double run_ms = 0;  // the case's one run (load excluded), for the record only
};

// A run's summary line for one target, written when its cases are done.
struct ConformanceSummary {
  std::string target;
  std::string runtime;
  std::string runtime_version;
  std::string onnx_version;
  std::string ops;  // the --ops pattern, "" for every case
  std::map<std::string, int> states;  // state name -> cells
  int fell_back = 0;                  // passes whose nodes stayed on the CPU
  std::string host;
  std::string edgebench_version;
};

nlohmann::json ConformanceCellToJson(const ConformanceCell& cell);
// An error names the first field missing or of the wrong type.
Result<ConformanceCell> ConformanceCellFromJson(const nlohmann::json& json);
nlohmann::json ConformanceSummaryToJson(const ConformanceSummary& summary);
Result<ConformanceSummary> ConformanceSummaryFromJson(const nlohmann::json& json);

// The two kinds of lines in a conformance.jsonl ("kind": "conformance_cell" or
// "conformance_summary").
inline constexpr const char kConformanceCellKind[] = "conformance_cell";
inline constexpr const char kConformanceSummaryKind[] = "conformance_summary";

// The cells and summaries of a conformance.jsonl. A line that is neither (torn by a kill, not
// JSON) is skipped with a warning naming its line number.
struct ConformanceStore {
  std::vector<ConformanceCell> cells;
  std::vector<ConformanceSummary> summaries;
  std::vector<std::string> warnings;
};
Result<ConformanceStore> ReadConformanceStore(const std::string& path);

// DIR/conformance.jsonl for a directory, the file itself for a .jsonl; an error says what to give.
Result<std::string> ConformanceStorePath(const std::string& store);

// The cells of each target and runtime version, the latest cell of each case (a run resumed or
// repeated appends; the last word counts). Keyed "target (runtime version)", ordered as first seen.
struct ConformanceColumn {
  std::string target;
  std::string runtime;
  std::string runtime_version;
  std::string onnx_version;
  std::vector<ConformanceCell> cells;  // one per case, in the order first seen
  std::string Label() const;  // "ort:cpu (ONNX Runtime 1.23.2)"
};
std::vector<ConformanceColumn> ConformanceColumns(const std::vector<ConformanceCell>& cells);

}  // namespace edgebench
