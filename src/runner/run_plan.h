// Runs a plan: each case in its own worker (or in this process for debugging), each record handed
// to a sink as soon as it exists, progress on stderr, and, for a resumed suite, the cases whose
// key the store already holds skipped.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "monitor/cooldown.h"
#include "record/record.h"
#include "report/store.h"
#include "plan/plan.h"

namespace edgebench {

struct RunPlanOptions {
  std::string executable;  // this program, for workers
  std::vector<std::string> worker_args;
  bool in_process = false;
  std::set<std::string> done_keys;  // case keys that already have a record (resume)
  bool progress = true;             // case i of n, stage, elapsed, ETA on stderr
  // --cooldown: waited for before each case that runs, into its record's monitor section.
  std::optional<CooldownSpec> cooldown;
  std::string sysfs_root = "/";  // where the cooldown reads temperatures
};

struct RunPlanTotals {
  int cases = 0;
  int measured = 0;        // status ok
  int invalid = 0;         // status ok, verdict INVALID
  int not_measured = 0;    // failed, crashed, timed out or unavailable
  int skipped = 0;         // the model has no artifact for the target
  int resumed = 0;         // skipped because the store already had them
  int store_errors = 0;    // records the sink could not store
  int interrupted_by = 0;  // the signal that stopped the plan (runner/interrupt.h), or 0
  std::string stopped;     // why a case's mode stopped the plan (CaseMode::StopReason), or empty
};

// `sink` stores and prints a record; false when it could not be stored.
RunPlanTotals RunPlan(const std::vector<PlannedCase>& plan, Registry& registry,
                      const RunPlanOptions& options, const std::function<bool(const Record&)>& sink);

// RunPlan for a command that prints in its own way (agree, accuracy, drift): with Ctrl-C
// handled (runner/interrupt.h), each record handed to `show`, then appended to `store` when
// there is one (a failed append said on stderr as "edgebench COMMAND: ..." and counted in
// store_errors). `appended`: the records the store took.
RunPlanTotals RunPlanIntoStore(const std::vector<PlannedCase>& plan, Registry& registry, const RunPlanOptions& options,
                               ResultStore* store, const std::string& command,
                               const std::function<void(const Record&)>& show, int& appended);

}  // namespace edgebench
