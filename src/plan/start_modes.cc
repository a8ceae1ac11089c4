#include "plan/start_modes.h"

namespace edgebench {

Result<std::vector<PlannedCase>> ApplyStart(const std::vector<PlannedCase>& plan, const std::string& start) {
  if (start.empty()) return plan;
  if (start != "cold" && start != "warm" && start != "both") {
    return Status::Error("--start '" + start + "': give cold, warm or both");
  }
  const std::vector<std::string> modes =
      start == "both" ? std::vector<std::string>{"cold", "warm"} : std::vector<std::string>{start};
  if (Status s = CheckCaseCount(static_cast<double>(plan.size() * modes.size()), "--start " + start); !s.ok()) return s;
  std::vector<PlannedCase> out;
  for (const PlannedCase& planned : plan) {
    if (planned.spec.pipeline && start != "warm") {
      return Status::Error("--start " + start + " is for one model: a pipeline's stages load several files each; "
                           "measure a stage's model alone with `edgebench run MODEL --start " + start + "`");
    }
    if (planned.mode) return Status::Error("--start " + start + " measures cases, not " + planned.spec.scenario + " runs");
    for (const std::string& mode : modes) {
      PlannedCase c = planned;
      c.spec.start = mode;
      if (Status settled = SettleCase(c.spec); !settled.ok()) return settled;
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace edgebench
