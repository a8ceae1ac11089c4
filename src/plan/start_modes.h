// --start cold|warm|both (run, llm, suite; docs/cold-start.md): whether each case first drops
// its model's files from the page cache, and, for both, a cold case and then a warm one.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "plan/plan.h"

namespace edgebench {

// "" (not given: warm, unrecorded), "cold", "warm" or "both"; the error names the flag.
// Each case becomes its cold case then its warm one for "both"; cold cases get their own key.
// A pipeline's cases are refused a cold start (their stages load several files each).
Result<std::vector<PlannedCase>> ApplyStart(const std::vector<PlannedCase>& plan, const std::string& start);

}  // namespace edgebench
