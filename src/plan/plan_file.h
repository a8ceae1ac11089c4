// A plan written down instead of run (`edgebench run|llm --plan-out FILE`, hidden): the cases a
// command planned, each as a worker reads it, one JSON object a line. A mix whose workloads share
// one process (docs/mixes.md, `isolation: together`) plans each workload with its own command,
// so that every flag is checked and settled exactly as when it runs alone, and hands the cases to
// one worker.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "plan/case_spec.h"
#include "plan/plan.h"

namespace edgebench {

struct PlanFileCase {
  CaseSpec spec;
  std::string skip_reason;  // the planner's: the case would be a skipped record
  // Why the case cannot run as one scenario beside others (a peak search, a mode that does not
  // measure, rounds); empty when it can.
  std::string not_a_scenario;
};

Status WritePlanFile(const std::vector<PlannedCase>& plan, const std::string& path);
// An error names the file and the line that cannot be read.
Result<std::vector<PlanFileCase>> ReadPlanFile(const std::string& path);

}  // namespace edgebench
