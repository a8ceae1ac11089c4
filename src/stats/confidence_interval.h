// Confidence intervals on one configuration's statistic, for `edgebench tune`'s race
// (tune/race.h): distribution-free intervals for a latency percentile, Student's t for a mean.
#pragma once

#include <cstdint>
#include <vector>

namespace edgebench {

// An estimate and the interval that holds the true value with the confidence asked for. `low`
// is -infinity and `high` +infinity where the samples cannot bound that side (a p99 from 100
// queries has no upper bound at 95%: the true p99 may lie above every sample seen).
struct Interval {
  double estimate = 0;
  double low = 0;
  double high = 0;
  int64_t samples = 0;
  bool Bounded() const;  // both sides finite
};

// P(Binomial(n, q) <= k), exact (summed in log space).
double BinomialCdf(int64_t n, double q, int64_t k);

// The order-statistic interval for the q-quantile (0 < q < 1) of the distribution the sorted
// samples come from: [x(l), x(u)] with l the largest rank such that P(Binomial(n, q) <= l - 1)
// <= alpha / 2 and u the smallest such that P(Binomial(n, q) >= u) <= alpha / 2. It assumes
// only independent draws from one continuous distribution, so it holds for any latency shape
// (long tails included), and its coverage is at least 1 - alpha. The estimate is the
// nearest-rank percentile x[ceil(q n) - 1], as stats/summary.h reports it.
Interval QuantileInterval(const std::vector<int64_t>& sorted, double q, double alpha);

// The fewest samples for which QuantileInterval has a finite upper bound: 1 - q^n >= 1 - alpha / 2
// (the p99 at alpha 0.05 needs 368; at 0.0005, 826).
int64_t QuantileIntervalMinSamples(double q, double alpha);

// Student's t interval on the mean (n >= 2; unbounded below that), two-sided at 1 - alpha.
Interval MeanInterval(const std::vector<double>& values, double alpha);

}  // namespace edgebench
