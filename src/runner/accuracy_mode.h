// `edgebench accuracy` as planned cases: one case per variant x target (scenario "accuracy"),
// each run by RunPlan through AccuracyMode, so an accuracy pass gets what a measured case gets:
// resume by case key, cooldown, interrupts, progress, the device monitor beside it, and its
// record (the typed `accuracy` section) stored as soon as it exists.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "inputs/labelled_images.h"
#include "runner/case_mode.h"
#include "plan/model_spec.h"
#include "plan/plan.h"

namespace edgebench {

// What every pass of one `accuracy` command shares.
struct AccuracyPlanRequest {
  // The model once per variant to run (plan/model_spec.h SelectVariant), with the variant's
  // name ("" for a model without variants).
  std::vector<std::pair<std::string, ModelSpec>> variants;
  std::vector<Target> targets;
  DataSetSpec data;
  std::string preprocess;  // the --preprocess text in force
  int64_t warmup = 3;
  int64_t timeout_ms = 0;      // a pass's worker; 0: 120 s + 100 ms an image of `images`
  int64_t images = 0;          // the images a pass reads (for the default timeout)
  int64_t case_memory_mb = 0;  // 0: DefaultCaseMemoryMb()
  MonitorSettings monitor;
  std::string executable;  // this program, for workers
  std::vector<std::string> worker_args;
};

// The worker's time limit when none is given: 120 s for loading, plus 100 ms an image.
int64_t DefaultAccuracyTimeoutMs(int64_t images);

// Cases in order variant, target; a target no artifact of the variant serves is a skipped case.
// Each case's key covers the artifact's bytes, the target and the images (source, split, range,
// preprocessing), so a resumed command skips exactly the passes the store holds. An error names
// the artifact that cannot be read.
Result<std::vector<PlannedCase>> PlanAccuracyCases(const AccuracyPlanRequest& request, const Registry& registry);

}  // namespace edgebench
