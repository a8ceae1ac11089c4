// The modes a suite file may list beside its measured scenarios (`accuracy`, `agree`, `drift`),
// each planned from the suite's block of that command's flags by the command's own parser and
// planner, for one model on the suite's targets. Defined beside each command (cmd_*.cc).
#pragma once

#include <string>
#include <vector>

#include "cli/commands.h"
#include "record/monitor_record.h"
#include "plan/model_spec.h"
#include "plan/plan.h"

namespace edgebench {

Result<std::vector<PlannedCase>> PlanAccuracyForSuite(const std::vector<std::string>& args, const ModelSpec& model,
                                                      const std::vector<Target>& targets,
                                                      const MonitorSettings& monitor, CommandContext& context);
// Agreement needs at least two targets; the reference is the first unless --reference names one.
Result<std::vector<PlannedCase>> PlanAgreeForSuite(const std::vector<std::string>& args, const ModelSpec& model,
                                                   const std::vector<Target>& targets,
                                                   const MonitorSettings& monitor, CommandContext& context);
// Drift runs on one target: one plan per target; --reference and --candidate name the model's
// variants.
Result<std::vector<PlannedCase>> PlanDriftForSuite(const std::vector<std::string>& args, const ModelSpec& model,
                                                   const Target& target, const MonitorSettings& monitor,
                                                   CommandContext& context);

}  // namespace edgebench
