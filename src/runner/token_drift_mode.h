// `edgebench drift` on GGUF language models as planned cases (scenario "drift"): the reference's
// run, which writes its logits to a scratch file, then the reference against itself (its KLD must
// be 0) and each candidate, each run by RunPlan through a token-drift mode in its own worker
// (worker/token_logits_case.h), answering a record with its `token_drift` section. So token drift
// gets resume by case key, cooldown, interrupts, progress, the device monitor beside each run and
// records in the store. When the reference's case is not run (resumed), the first candidate runs
// it again for its logits, without a record; a failed reference stops the plan.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "runner/case_mode.h"
#include "plan/plan.h"
#include "plan/token_drift_plan.h"

namespace edgebench {


// An error: the scratch directory for the logits could not be made.
Result<std::vector<PlannedCase>> PlanTokenDriftCases(const TokenDriftPlanRequest& request, const Registry& registry);

}  // namespace edgebench
