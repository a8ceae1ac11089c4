// The regression gate of `edgebench compare --fail-if-slower` (report/compare_gate.h), on
// comparisons built here.
#include "report/compare_gate.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

CaseComparison Case(const std::string& target, CaseVerdict verdict, const std::string& base_status = "ok",
                    const std::string& new_status = "ok") {
  CaseComparison c;
  c.model = "m";
  c.target = target;
  c.scenario = "single-stream";
  c.base.status = base_status;
  c.candidate.status = new_status;
  c.verdict = verdict;
  return c;
}

MetricComparison Slower(double low, double high) {
  MetricComparison m;
  m.name = "p50";
  m.verdict = MetricVerdict::kSlower;
  m.change = (low + high) / 2;
  m.ci_low = low;
  m.ci_high = high;
  return m;
}

TEST(CompareGate, TheThresholdCarriesItsUnit) {
  EXPECT_DOUBLE_EQ(ParseGateThreshold("--fail-if-slower", "5%").value(), 0.05);
  EXPECT_DOUBLE_EQ(ParseGateThreshold("--fail-if-slower", "0.5%").value(), 0.005);
  EXPECT_DOUBLE_EQ(ParseGateThreshold("--fail-if-slower", "0%").value(), 0);
  for (const char* bad : {"5", "0.05", "", "%", "-1%", "lots", "1e400%", "nan%", "inf%", " 5%"}) {
    auto parsed = ParseGateThreshold("--fail-if-slower", bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().find("e.g. --fail-if-slower 5%"), std::string::npos) << parsed.error();
  }
  EXPECT_NE(ParseGateThreshold("--fail-if-slower", "5").error().find("has no unit"), std::string::npos);
}

TEST(CompareGate, ASlowerCaseFailsOnlyWhenItsIntervalLiesAboveTheThreshold) {
  Comparison comparison;
  comparison.cases.push_back(Case("a", CaseVerdict::kSlower));
  comparison.cases.back().metrics.push_back(Slower(0.021, 0.039));
  comparison.cases.push_back(Case("b", CaseVerdict::kNoChange));
  EXPECT_EQ(GateFailures(comparison, 0.05, "5%"), std::vector<std::string>{});
  const auto failures = GateFailures(comparison, 0.02, "2%");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0],
            "m on a (single-stream): p50 slower by at least +2.10% (change +3.00%, 95% interval [+2.10%, "
            "+3.90%]), more than --fail-if-slower 2%");
}

// A case whose metrics disagree (p50 faster, p99 slower) is judged slower, as docs/compare.md
// says; the gate fails on its slower metric alone.
TEST(CompareGate, ACaseWithOneMetricFasterAndOneSlowerFailsOnTheSlowerOne) {
  Comparison comparison;
  comparison.cases.push_back(Case("a", CaseVerdict::kSlower));
  MetricComparison faster = Slower(-0.2, -0.1);
  faster.verdict = MetricVerdict::kFaster;
  comparison.cases.back().metrics = {faster, Slower(0.1, 0.2)};
  comparison.cases.back().metrics[1].name = "p99";
  const auto failures = GateFailures(comparison, 0.05, "5%");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("p99 slower by at least +10.00%"), std::string::npos) << failures[0];
}

TEST(CompareGate, ACaseBaseMeasuredThatNewDidNotMeasureOrLostFailsTheGate) {
  Comparison comparison;
  comparison.cases.push_back(Case("fine", CaseVerdict::kNoChange));
  comparison.cases.push_back(Case("crashed", CaseVerdict::kNotComparable, "ok", "crashed"));
  comparison.cases.back().reason = "NEW crashed";
  comparison.cases.push_back(Case("never", CaseVerdict::kNotComparable, "failed", "failed"));
  comparison.only_base.push_back({"k1", "m", "gone", "single-stream", true});
  comparison.only_base.push_back({"k2", "m", "never-measured", "single-stream", false});
  comparison.only_candidate.push_back({"k3", "m", "new", "single-stream", true});
  const auto failures = GateFailures(comparison, 0.05, "5%");
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[0], "m on crashed (single-stream): measured in BASE, crashed in NEW (NEW crashed)");
  EXPECT_EQ(failures[1], "m on gone (single-stream): measured in BASE, missing from NEW");
}

TEST(CompareGate, NothingComparableFailsTheGate) {
  Comparison comparison;
  comparison.cases.push_back(Case("other-machine", CaseVerdict::kNotComparable));
  const auto failures = GateFailures(comparison, 0.05, "5%");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("no case could be compared"), std::string::npos) << failures[0];
}

}  // namespace
}  // namespace edgebench
