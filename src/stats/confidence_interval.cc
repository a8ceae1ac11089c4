#include "stats/confidence_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/early_stopping.h"
#include "stats/significance.h"

namespace edgebench {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

bool Interval::Bounded() const { return std::isfinite(low) && std::isfinite(high); }

double BinomialCdf(int64_t n, double q, int64_t k) {
  if (k < 0) return 0;
  if (k >= n) return 1;
  // EarlyStoppingLogOdds(p, h, t) is log P(Binomial(h + t, 1 - p) <= t), summed over t + 1
  // terms: from the shorter tail. P(B(n, q) <= k) = 1 - P(B(n, 1 - q) <= n - k - 1), which for a
  // p99 is about 1% of the terms.
  if (k <= n - k - 1) return std::exp(EarlyStoppingLogOdds(1 - q, n - k, k));
  return 1 - std::exp(EarlyStoppingLogOdds(q, k + 1, n - k - 1));
}

Interval QuantileInterval(const std::vector<int64_t>& sorted, double q, double alpha) {
  Interval interval;
  const int64_t n = static_cast<int64_t>(sorted.size());
  interval.samples = n;
  if (n == 0) {
    interval.estimate = std::nan("");
    interval.low = -kInfinity;
    interval.high = kInfinity;
    return interval;
  }
  const int64_t rank = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(q * static_cast<double>(n))), 1, n);
  interval.estimate = static_cast<double>(sorted[rank - 1]);
  // Lower: the largest l with P(B <= l - 1) <= alpha / 2 (the CDF grows with l).
  int64_t lo = 0;  // l = 0: no lower bound
  int64_t hi = n + 1;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (BinomialCdf(n, q, mid - 1) <= alpha / 2 ? lo : hi) = mid;
  }
  interval.low = lo >= 1 ? static_cast<double>(sorted[lo - 1]) : -kInfinity;
  // Upper: the smallest u with P(B >= u) <= alpha / 2, i.e. P(B <= u - 1) >= 1 - alpha / 2.
  lo = 0;
  hi = n + 1;  // u = n + 1: no upper bound
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (BinomialCdf(n, q, mid - 1) >= 1 - alpha / 2 ? hi : lo) = mid;
  }
  interval.high = hi <= n ? static_cast<double>(sorted[hi - 1]) : kInfinity;
  return interval;
}

int64_t QuantileIntervalMinSamples(double q, double alpha) {
  // x(n) bounds the quantile from above when P(B <= n - 1) = 1 - q^n >= 1 - alpha / 2.
  return static_cast<int64_t>(std::ceil(std::log(alpha / 2) / std::log(q)));
}

Interval MeanInterval(const std::vector<double>& values, double alpha) {
  Interval interval;
  const int64_t n = static_cast<int64_t>(values.size());
  interval.samples = n;
  double sum = 0;
  for (double v : values) sum += v;
  interval.estimate = n > 0 ? sum / static_cast<double>(n) : std::nan("");
  if (n < 2) {
    interval.low = -kInfinity;
    interval.high = kInfinity;
    return interval;
  }
  double squares = 0;
  for (double v : values) squares += (v - interval.estimate) * (v - interval.estimate);
  const double standard_error = std::sqrt(squares / static_cast<double>(n - 1) / static_cast<double>(n));
  const double t = StudentTQuantile(alpha, static_cast<double>(n - 1));
  interval.low = interval.estimate - t * standard_error;
  interval.high = interval.estimate + t * standard_error;
  return interval;
}

}  // namespace edgebench
