// `edgebench accuracy` as planned cases: one case per variant x target (scenario "accuracy"),
// each run by RunPlan through AccuracyMode, so an accuracy pass gets what a measured case gets:
// resume by case key, cooldown, interrupts, progress, the device monitor beside it, and its
// record (the typed `accuracy` section) stored as soon as it exists.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "runner/case_mode.h"
#include "plan/accuracy_plan.h"
#include "plan/model_spec.h"
#include "plan/plan.h"

namespace edgebench {

// The worker's time limit when none is given: 120 s for loading, plus 100 ms an image.
int64_t DefaultAccuracyTimeoutMs(int64_t images);

// Cases in order variant, target; a target no artifact of the variant serves is a skipped case.
// Each case's key covers the artifact's bytes, the target and the images (source, split, range,
// preprocessing), so a resumed command skips exactly the passes the store holds. An error names
// the artifact that cannot be read.
Result<std::vector<PlannedCase>> PlanAccuracyCases(const AccuracyPlanRequest& request, const Registry& registry);

}  // namespace edgebench
