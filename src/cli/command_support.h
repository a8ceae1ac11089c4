// What several subcommands share: the arguments that pass the log level on to workers, and the
// exit status of a plan.
#pragma once

#include <string>
#include <vector>

#include "runner/run_plan.h"

namespace edgebench {

// "--verbose" when runtimes' own logs are wanted (debug level), so workers show them too.
std::vector<std::string> WorkerLogArgs();

// 0 when every case measured (a case skipped for want of an artifact is not a failure) and at
// least one case measured or was already in the store; 1 otherwise (said on stderr when
// nothing was measured or a record could not be stored).
int PlanExitCode(const RunPlanTotals& totals, const std::string& command);

}  // namespace edgebench
