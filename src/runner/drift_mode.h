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
#include "core/layout.h"
#include "inputs/input_source.h"
#include "inputs/labelled_images.h"
#include "runner/case_mode.h"
#include "plan/plan.h"

namespace edgebench {

// One side: a variant of the model, else an artifact file.
struct DriftSide {
  std::string label;  // as written
  std::string artifact;
  std::string variant;  // empty for a plain file
  Layout layout = Layout::kAny;  // the artifact's declared layout
};

struct DriftPlanRequest {
  std::string model;  // the name records carry
  DriftSide reference;
  std::vector<DriftSide> candidates;
  Target target;
  ShapeBindings dims;
  InputOptions inputs;  // seeded values or files, the same for every side
  // A labelled data set instead (data.source non-empty), with its preprocessing and labels.
  DataSetSpec data;
  std::string preprocess;
  std::vector<int32_t> labels;
  double min_sqnr_db = 30;
  int64_t timeout_ms = 600000;
  MonitorSettings monitor;
  std::string executable;
  std::vector<std::string> worker_args;
};

// An error: the scratch directory could not be made.
Result<std::vector<PlannedCase>> PlanDriftCases(const DriftPlanRequest& request, const Registry& registry);

}  // namespace edgebench
