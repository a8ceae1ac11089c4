// `edgebench agree` as planned cases: one case per target (scenario "agree"), the reference's
// first, each run by RunPlan through an agreement mode, so agreement gets what a measured case
// gets: resume by case key, cooldown, interrupts, progress, the device monitor beside each
// target's run, and its record (the typed `agreement` section) stored as soon as it exists.
// Every target gets exactly the reference's inputs; when the reference's own case is not run
// (resumed), the first target to need its outputs runs it again, without a record.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "diagnose/target_agreement.h"
#include "runner/case_mode.h"
#include "plan/agree_plan.h"
#include "plan/model_spec.h"
#include "plan/plan.h"

namespace edgebench {


// What a target's case found, for the command's table and JSON report, by case key.
struct AgreeOutcome {
  bool is_reference = false;
  std::string artifact;
  std::string effective_target;
  std::vector<Tensor> reference_outputs;  // the reference's case: its outputs (names and shapes)
  std::optional<TargetAgreement> comparison;  // another target's case that ran and was compared
};

struct AgreePlan {
  std::vector<PlannedCase> cases;  // the reference's first
  std::string reference;           // its target text
  std::string input_description;   // "seeded random (seed 0)" or the image
  Tolerances tolerances;           // as the request gave them
  // Filled as the cases run.
  std::shared_ptr<std::map<std::string, AgreeOutcome>> outcomes;
};

// An error names what is wrong (a --reference not among the targets, a skipped reference, an
// unreadable artifact); the CLI reports it as a bad argument.
Result<AgreePlan> PlanAgreeCases(const AgreePlanRequest& request, const Registry& registry);

}  // namespace edgebench
