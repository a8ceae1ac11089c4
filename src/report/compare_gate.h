// `edgebench compare --fail-if-slower X`: the regression gate of a CI job. It fails on a case
// judged slower whose interval lies wholly above X, and on what it cannot judge: a case BASE
// measured that NEW did not (crashed, failed, timed out) or no longer has, and a comparison in
// which no case could be compared at all. A gate that passes says every case BASE measured was
// measured again and none regressed past X.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "report/compare.h"

namespace edgebench {

// The gate's threshold: a percentage with its sign ("5%", "0.5%"); a bare number ("5": 5% or
// 500%?), an empty value, a negative or non-finite one is an error naming the flag.
Result<double> ParseGateThreshold(const std::string& flag, const std::string& text);

// Why the gate fails, one line per finding (empty: it passes). `threshold` is a fraction.
std::vector<std::string> GateFailures(const Comparison& comparison, double threshold, const std::string& as_written);

}  // namespace edgebench
