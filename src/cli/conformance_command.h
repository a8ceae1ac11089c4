// `edgebench conformance` (docs/conformance.md) as the suite runs it too (a suite's
// `conformance:` block): ONNX's node tests on targets, cells stored, tables printed.
#pragma once

#include <string>

#include "cli/commands.h"

namespace edgebench {

struct ConformanceCommandOptions {
  std::string cases_dir;  // empty: the newest in the cache
  std::string targets = "ort:cpu";
  std::string ops;
  int64_t timeout_ms = 30000;
  int64_t case_memory_mb = 0;
  std::string format = "table";
  std::string out_dir;  // empty: no store
  bool all_operators = false;
  bool details = false;
};

// 0 when every target ran every case (whatever the cells say); 1 when a target cannot run here
// or the run was interrupted; 2 for bad arguments (no cases, an --ops that matches nothing).
int RunConformanceCommand(const ConformanceCommandOptions& options, CommandContext& context);

}  // namespace edgebench
