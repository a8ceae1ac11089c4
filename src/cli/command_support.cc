#include "cli/command_support.h"

#include <iostream>

#include "core/log.h"

namespace edgebench {

std::vector<std::string> WorkerLogArgs() {
  if (LogEnabled(LogLevel::kDebug)) return {"--verbose"};
  return {};
}

int PlanExitCode(const RunPlanTotals& totals, const std::string& command) {
  int code = 0;
  if (totals.store_errors > 0) code = 1;
  if (totals.not_measured > 0) code = 1;
  if (totals.measured == 0 && totals.resumed == 0) {
    std::cerr << "edgebench " << command << ": nothing was measured ("
              << (totals.cases == 0 ? std::string("the plan has no case")
                                    : std::to_string(totals.skipped) + " of " + std::to_string(totals.cases) +
                                          " cases skipped, " + std::to_string(totals.not_measured) + " failed")
              << ")\n";
    code = 1;
  }
  return code;
}

}  // namespace edgebench
