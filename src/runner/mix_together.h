// A mix's mixed phase with `isolation: together` (docs/mixes.md): the workloads' cases, each
// planned by its own command, run on threads of one worker process (worker/together_cases.h).
// The process's end is every workload's: when it dies, the workloads whose cases had not ended
// are lost with it, and their records say so, naming the workload whose thread crashed when the
// worker's crash handler could tell.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "plan/case_spec.h"
#include "record/record.h"

namespace edgebench {

struct TogetherWorkload {
  std::string name;
  CaseSpec spec;
};

struct TogetherOutcome {
  std::vector<Record> records;  // one per workload, in order: its own, or how it was lost
  int exit_code = 0;            // the worker's: 128 + N when it died of signal N
  std::string crashed_workload; // whose thread died, when the worker could tell
};

TogetherOutcome RunWorkloadsTogether(const std::string& executable, const std::vector<TogetherWorkload>& workloads,
                                     const Registry& registry, const std::string& stderr_path);

}  // namespace edgebench
