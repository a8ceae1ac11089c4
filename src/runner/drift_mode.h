// `edgebench drift` (tensor models) as planned cases: the reference's case first, then one case
// per candidate (scenario "drift"), each run by RunPlan through a drift mode, so drift gets what
// a measured case gets: resume by case key, cooldown, interrupts, progress, the device monitor
// beside each side's run, and its record (the typed `tensor_drift` section) stored as soon as it
// exists. Each side runs in workers that write its tensors to files in a scratch directory
// (worker/intermediates_case.h), removed when the plan's cases are gone; when the reference's own
// case is not run (resumed), the first candidate runs it again, without a record.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "runner/case_mode.h"
#include "plan/drift_plan.h"
#include "plan/plan.h"

namespace edgebench {

// An error: the scratch directory could not be made.
Result<std::vector<PlannedCase>> PlanDriftCases(const DriftPlanRequest& request, const Registry& registry);

}  // namespace edgebench
