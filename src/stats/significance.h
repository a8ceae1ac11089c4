// Whether two runs differ: a rank test on the raw samples and a bootstrap interval on the
// relative change of a statistic, combined into a verdict by Criterion's rule (docs/compare.md).
//
// The U test is what Google Benchmark's tools/compare.py runs on repetitions (scipy's
// mannwhitneyu, two-sided); the verdict rule is Criterion.rs's: a change counts only when it is
// significant (p < 0.05) AND its whole 95% interval lies outside a noise threshold, so a tiny but
// "significant" change on a noisy machine is still "no change".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// Only at or above this many samples per side is the U test's normal approximation close to
// the exact distribution (scipy uses the exact one below it when there are no ties).
inline constexpr int64_t kMannWhitneyMinSamples = 8;

struct MannWhitneyResult {
  double u = 0;  // U of the first sample: pairs (a, b) with a > b, ties counting one half
  double z = 0;  // standardized, continuity corrected, signed: > 0 when the first sample is larger
  double p = 1;  // two-sided
  // Whether each side has at least kMannWhitneyMinSamples samples. Below that p still comes from
  // the normal approximation, which is then rough (for 3 against 3, all of one side above the
  // other, it gives 0.081 where the exact p is 0.100): read it as a hint, not a test.
  bool approximation_ok = false;
};

// Two-sided Mann-Whitney U test of `a` against `b`: the normal approximation with the tie
// correction of the variance and a continuity correction of 0.5, as scipy.stats.mannwhitneyu(a,
// b, alternative="two-sided", method="asymptotic", use_continuity=True). NaNs are left out. p = 1
// when either side is empty or every value is the same. Cost: sorting copies of both sides, O(n log n).
MannWhitneyResult MannWhitneyU(const std::vector<double>& a, const std::vector<double>& b);

// The statistic whose change is bootstrapped.
struct Statistic {
  enum class Kind { kPercentile, kMean };
  Kind kind = Kind::kPercentile;
  double fraction = 0.5;  // kPercentile: 0.5 for p50, 0.99 for p99 (nearest rank)

  static Statistic Percentile(double fraction) { return {Kind::kPercentile, fraction}; }
  static Statistic Mean() { return {Kind::kMean, 0}; }
  std::string Name() const;  // "p50", "p99", "mean"
};

// The statistic on one sample: the nearest-rank percentile x[ceil(f n) - 1] of the sorted
// values (as stats/summary.h, without its minimum sample count) or the mean. NaN when empty.
double ComputeStatistic(const std::vector<double>& values, const Statistic& statistic);

struct BootstrapOptions {
  int resamples = 2000;
  uint64_t seed = 0;
  double confidence = 0.95;
};

struct RelativeChange {
  double estimate = 0;  // statistic(new) / statistic(base) - 1 on the samples themselves
  double low = 0;       // the interval's bounds: percentiles (1 - confidence) / 2 and
  double high = 0;      // (1 + confidence) / 2 of the resampled ratios, minus 1
  int resamples = 0;    // resamples whose base statistic was not 0 (the others have no ratio)
};

// Percentile bootstrap of statistic(new) / statistic(base) - 1: each resample draws each side
// with replacement (std::mt19937_64 seeded with `seed`), independently, at its own size. Absent
// when either side is empty or the base statistic is 0.
//
// Cost. A percentile is sampled directly: the k-th smallest of n draws with replacement from the
// sorted sample is x[ceil(n U) - 1] with U ~ Beta(k, n - k + 1) (the k-th order statistic of n
// uniforms pushed through the sample's inverse distribution function), which is the same
// distribution as resampling and then selecting, at O(1) per resample instead of O(n): one sort
// per side, then O(resamples). Measured on a busy 2-core machine (-O3): 10^6 samples per side
// with 2000 resamples, 0.18 s (the sorts), where drawing 10^6 values and nth_element per resample
// would take tens of seconds;
// the U test on the same, 0.2 s. The mean resamples explicitly, O(resamples x n), for small
// samples such as per-window throughputs (10^5 samples: 1.2 s).
std::optional<RelativeChange> BootstrapRelativeChange(const std::vector<double>& base,
                                                      const std::vector<double>& candidate,
                                                      const Statistic& statistic,
                                                      const BootstrapOptions& options = {});

enum class ChangeVerdict { kFaster, kSlower, kNoChange };
std::string ChangeVerdictName(ChangeVerdict verdict);  // "faster", "slower", "no change"

// Criterion's rule: a change is real when p < alpha AND the whole interval lies outside
// [-noise_threshold, +noise_threshold]; its direction is then slower when the metric grew and
// `higher_is_slower` (latency, energy), or shrank and not (throughput). Otherwise "no change".
ChangeVerdict JudgeChange(double p, const RelativeChange& change, double noise_threshold,
                          bool higher_is_slower, double alpha = 0.05);

// Student's t distribution: the two-sided tail probability P(|T| >= |t|) with `df` degrees of
// freedom (df > 0), from the regularized incomplete beta function; and its inverse, the t with
// that two-sided tail probability (e.g. 2.776 for 0.05 at df 4).
double StudentTTwoSidedP(double t, double df);
double StudentTQuantile(double two_sided_p, double df);

// The change between runs rather than queries: each run's statistic (its p50, its throughput)
// is one observation, and the change is the ratio of the two sides' geometric means. Its
// interval and p come from Student's t on the logarithms with the run-to-run variance pooled
// over both sides (df = runs - 2), so they cover what varies from one run to the next on a
// machine (frequency, other load, placement of threads), which queries within one run do not
// show. Needs three runs or more in all and one a side; empty otherwise or with a value <= 0.
struct RunLevelChange {
  RelativeChange change;  // estimate, low, high; resamples 0
  double p = 1;           // two-sided, Student's t
  double df = 0;
  double run_to_run_cv = 0;  // the pooled standard deviation of the logarithms (about the CV)
};
std::optional<RunLevelChange> RunLevelRelativeChange(const std::vector<double>& base_runs,
                                                     const std::vector<double>& candidate_runs,
                                                     double confidence = 0.95);

}  // namespace edgebench
