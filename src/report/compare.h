// `edgebench compare BASE NEW`: the records of two stores paired case by case, each metric's
// change with a 95% bootstrap interval and a Mann-Whitney U test on the raw samples, and a
// verdict by Criterion's rule (stats/significance.h; docs/compare.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/record.h"
#include "report/compare_pairing.h"
#include "stats/significance.h"

namespace edgebench {

struct CompareOptions {
  double noise_threshold = 0.01;  // relative, Criterion's default is 0.01 too
  int resamples = 2000;
  uint64_t seed = 0;
  double alpha = 0.05;
  // Empty: pair by case key. Otherwise the record fields (kCompareMatchFields) that pair cases
  // whose keys differ, e.g. {"model", "backend", "device", "scenario"} to compare a target option
  // changed on purpose (ort:cpu?threads=4 against threads=8).
  std::vector<std::string> match_by;
  bool ignore_environment = false;      // a different machine is a note, not "not comparable"
  bool ignore_runtime_version = false;  // a different runtime version is a note
};

// Parses --by's "model,backend,device,scenario"; the error names the unknown field.
Result<std::vector<std::string>> ParseMatchFields(const std::string& text);

enum class MetricVerdict { kFaster, kSlower, kNoChange, kNotTested };
enum class CaseVerdict { kFaster, kSlower, kNoChange, kNotComparable };
std::string MetricVerdictName(MetricVerdict verdict);  // "not tested" for the last
std::string CaseVerdictName(CaseVerdict verdict);      // "not comparable" for the last

struct MetricComparison {
  std::string name;  // "p50", "p99", "throughput", "ttft p50", "tpot p50", "energy/query"
  std::string unit;  // "ms", "qps", "samples/s", "mJ"
  bool higher_is_slower = true;
  bool primary = false;  // p50 and p99 latency
  double base = 0;       // in `unit`
  double candidate = 0;
  double change = 0;  // candidate / base - 1
  std::optional<double> ci_low, ci_high;  // the 95% interval of the change, when bootstrapped
  std::optional<double> p_value;          // Mann-Whitney U, when tested
  int64_t base_samples = 0;               // samples each side's test and interval used
  int64_t candidate_samples = 0;
  MetricVerdict verdict = MetricVerdict::kNotTested;
  std::string note;  // why not tested, or what to know ("8 requests: the U test is rough")

  // The slowdown the interval guarantees at least (its bound nearest 0 in the slower
  // direction); absent without an interval.
  std::optional<double> MinimumSlowdown() const;
};

// One side's record of a pair, as shown.
struct CompareSide {
  std::string record_id;
  std::string case_key;
  std::string target;  // effective target
  std::string status;
  bool valid = true;  // the record's own verdict: false when INVALID
};

struct CaseComparison {
  std::string match;  // what paired them: the case key, or "model=m, backend=b, ..."
  std::string model;
  std::string target;  // BASE's effective target; NEW's when it differs is in `notes`
  std::string scenario;
  CompareSide base;
  CompareSide candidate;
  CaseVerdict verdict = CaseVerdict::kNoChange;
  std::string reason;  // why not comparable
  std::vector<std::string> notes;
  std::vector<MetricComparison> metrics;
};

// A case only one store has.
struct UnmatchedCase {
  std::string match;
  std::string model;
  std::string target;
  std::string scenario;
  bool measured = false;  // a record of it has status ok
};

struct Comparison {
  std::vector<CaseComparison> cases;  // in BASE's order
  std::vector<UnmatchedCase> only_base;
  std::vector<UnmatchedCase> only_candidate;
  double noise_threshold = 0.01;
  std::string match_rule;  // "case key" or "model, backend, device, scenario"
  // Cases compared run by run (three measured runs or more in the two stores together) and
  // cases compared query by query within one run a side.
  int run_level_cases = 0;
  int single_run_cases = 0;

  // "2 slower, 10 no change, 1 not comparable, 3 only in BASE".
  std::string SummaryLine() const;
};

// Pairs BASE's and NEW's records and compares every pair. An error, written for people, when no
// case is in both (saying how many each has and what the match covers).
Result<Comparison> CompareRecords(const std::vector<Record>& base, const std::vector<Record>& candidate,
                                  const CompareOptions& options);

// Compares one pair, paired already (the environment checks included).
CaseComparison CompareCase(const Record& base, const Record& candidate, const CompareOptions& options);

// A change as the tables and messages write it: "+2.75%" (without the sign for a magnitude).
std::string SignedPercent(double fraction, bool sign = true);
// A change's 95% interval as the table writes it ("[+1.20%, +3.10%]", "-" without one), said to
// be too wide to size the change when it spans more than 200 points.
std::string IntervalText(const MetricComparison& m);

nlohmann::json ComparisonToJson(const Comparison& comparison);
// The table: model, target, scenario, metric, base, new, change, 95% CI, p, verdict; then the
// notes and the unmatched cases. Markdown starts with the summary line.
std::string ComparisonText(const Comparison& comparison);
std::string ComparisonMarkdown(const Comparison& comparison);

}  // namespace edgebench
