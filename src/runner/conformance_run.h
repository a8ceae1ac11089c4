// `edgebench conformance` on one target: ONNX's node test cases in workers (worker/
// conformance_case.h), one worker for as many cases as run cleanly. A case that crashes or hangs
// its worker (the worker ends itself with SIGALRM past --timeout) is that case's cell, `crashed`
// or `timeout`, and a new worker goes on from the next case. Each cell is appended to the store
// as it arrives, so a killed run loses nothing, and a run given the same store goes on where the
// last stopped (the same target, runtime version and ONNX version).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "diagnose/conformance_cases.h"
#include "record/conformance_cell.h"
#include "worker/conformance_case.h"

namespace edgebench {

struct ConformanceRunRequest {
  std::string executable;  // edgebench, for its workers
  std::string target;      // as the user wrote it
  std::string cases_dir;
  std::string onnx_version;
  std::vector<ConformanceCase> cases;  // selected (--ops)
  std::string ops;                     // the --ops pattern, for the summary
  int64_t case_timeout_ms = 30000;
  int64_t memory_limit_mb = 0;  // 0: DefaultCaseMemoryMb()
  std::string store_path;       // DIR/conformance.jsonl; "" keeps no store (and resumes nothing)
  // Where the workers' stderr (the runtimes' own messages, which each cell's detail also holds)
  // is appended: DIR/conformance-stderr.log beside a store; "" discards it.
  std::string stderr_log;
  // Each cell as it is known (resumed ones first), with the count done so far.
  std::function<void(const ConformanceCell& cell, size_t done, size_t total)> on_cell;
};

struct ConformanceRunOutcome {
  ConformanceRuntime runtime;  // error set: the target cannot run here, and nothing ran
  std::vector<ConformanceCell> cells;  // one per selected case, in the cases' order
  size_t resumed = 0;                  // cells taken from the store rather than run
  std::vector<std::string> warnings;   // the store's unreadable lines, a store that cannot be written
  int interrupted_by = 0;              // Ctrl-C (SIGINT/SIGTERM): the cells so far are kept
};

ConformanceRunOutcome RunConformanceTarget(const ConformanceRunRequest& request);

// The summary of a target's cells, as the store's summary line holds it.
ConformanceSummary SummarizeConformance(const ConformanceRuntime& runtime, const std::string& onnx_version,
                                        const std::string& ops, const std::vector<ConformanceCell>& cells);

}  // namespace edgebench
