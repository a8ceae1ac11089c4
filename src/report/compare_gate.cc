#include "report/compare_gate.h"

#include "core/strings.h"

namespace edgebench {
namespace {

std::string CaseName(const std::string& model, const std::string& target, const std::string& scenario) {
  return model + " on " + target + " (" + scenario + ")";
}

}  // namespace

Result<double> ParseGateThreshold(const std::string& flag, const std::string& text) {
  const std::string usage = "; write a percentage with its unit, e.g. " + flag + " 5%";
  if (text.empty()) return Status::Error(flag + " is empty" + usage);
  if (text.back() != '%') {
    return Status::Error(flag + ": '" + text + "' has no unit (5% or 500%?)" + usage);
  }
  const std::optional<double> value = ParseFiniteNumber(text.substr(0, text.size() - 1));
  if (!value || !(*value >= 0)) return Status::Error(flag + ": '" + text + "' is not a percentage" + usage);
  return *value / 100;
}

std::vector<std::string> GateFailures(const Comparison& comparison, double threshold, const std::string& as_written) {
  std::vector<std::string> failures;
  int comparable = 0;
  for (const CaseComparison& c : comparison.cases) {
    const std::string name = CaseName(c.model, c.target, c.scenario);
    if (c.base.status == "ok" && c.candidate.status != "ok") {
      failures.push_back(name + ": measured in BASE, " + c.candidate.status + " in NEW" +
                         (c.reason.empty() ? "" : " (" + c.reason + ")"));
      continue;
    }
    if (c.verdict == CaseVerdict::kNotComparable) continue;
    ++comparable;
    if (c.verdict != CaseVerdict::kSlower) continue;
    for (const MetricComparison& m : c.metrics) {
      const auto slowdown = m.MinimumSlowdown();
      if (m.verdict != MetricVerdict::kSlower || !slowdown || !(*slowdown > threshold)) continue;
      failures.push_back(name + ": " + m.name + " slower by at least " + SignedPercent(*slowdown) + " (change " +
                         SignedPercent(m.change) + ", 95% interval [" + SignedPercent(*m.ci_low) + ", " + SignedPercent(*m.ci_high) +
                         "]), more than --fail-if-slower " + as_written);
    }
  }
  for (const UnmatchedCase& u : comparison.only_base) {
    if (!u.measured) continue;
    failures.push_back(CaseName(u.model, u.target, u.scenario) + ": measured in BASE, missing from NEW");
  }
  if (comparable == 0) {
    failures.push_back("no case could be compared (" + comparison.SummaryLine() +
                       "): the gate has nothing to pass");
  }
  return failures;
}

}  // namespace edgebench
