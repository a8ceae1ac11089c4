// A suite's mode blocks (plan/suite_modes.h) as cases: each mode's planner on one model of the
// suite, on its targets (drift: on each target in turn), the same planners the commands use.
#pragma once

#include <vector>

#include "plan/plan.h"
#include "plan/suite_modes.h"

namespace edgebench {

// An error is a bad argument in the block, naming the option.
Result<std::vector<PlannedCase>> PlanSuiteModeCases(const SuiteModeOptions& options, const ModelSpec& model,
                                                    const std::vector<Target>& targets,
                                                    const ModePlanContext& context);

}  // namespace edgebench
