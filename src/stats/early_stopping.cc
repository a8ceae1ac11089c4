#include "stats/early_stopping.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "stats/summary.h"
#include "core/strings.h"

namespace edgebench {

namespace {

bool ValidArguments(double percentile, double confidence) {
  return percentile > 0.0 && percentile < 1.0 && confidence > 0.0 && confidence < 1.0;
}

// The largest value in [lo, hi] for which ok() holds, given that ok(lo) holds and ok is
// monotone (true up to some point, false after it).
template <typename Predicate>
int64_t LargestTrue(int64_t lo, int64_t hi, Predicate ok) {
  if (ok(hi)) return hi;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (ok(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double EarlyStoppingLogOdds(double percentile, int64_t passing, int64_t overlatency) {
  if (passing <= 0) return 0.0;
  // Terms of the binomial CDF, P(X = x) = C(n, x) q^x p^(n - x) with q = 1 - p, built from the
  // ratio of consecutive terms, (n - x) / (x + 1) * q / p, and summed as a running
  // log-sum-exp (`sum` is scaled by exp(-max)). Arithmetic only: no lgamma, whose glibc
  // version writes a global (signgam) and would race across threads.
  const int64_t n = passing + overlatency;
  const double log_p = std::log(percentile);
  const double log_q_over_p = std::log1p(-percentile) - log_p;
  double log_term = static_cast<double>(n) * log_p;
  double max = log_term;
  double sum = 1.0;
  for (int64_t x = 0; x < overlatency; ++x) {
    log_term += std::log(static_cast<double>(n - x) / static_cast<double>(x + 1)) + log_q_over_p;
    if (log_term > max) {
      sum = sum * std::exp(max - log_term) + 1.0;
      max = log_term;
    } else {
      sum += std::exp(log_term - max);
    }
  }
  return std::min(0.0, max + std::log(sum));
}

int64_t EarlyStoppingMinPassing(double percentile, double confidence, int64_t overlatency) {
  if (!ValidArguments(percentile, confidence) || overlatency < 0) return -1;
  const double log_threshold = std::log1p(-confidence);
  auto passes = [&](int64_t h) {
    return EarlyStoppingLogOdds(percentile, h, overlatency) < log_threshold;
  };
  // The odds fall as h grows. h = 0 never passes (odds 1). Start the doubling at the expected
  // number of passing queries for t over-latency ones, t * p / (1 - p), a lower bound for any
  // confidence above one half.
  int64_t lo = 0;
  int64_t hi = std::max<int64_t>(
      1, static_cast<int64_t>(static_cast<double>(overlatency) * percentile / (1.0 - percentile)));
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 4;
  while (!passes(hi)) {
    if (hi > kLimit) return -1;
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (passes(mid) ? hi : lo) = mid;
  }
  return hi;
}

int64_t EarlyStoppingMinQueries(double percentile, double confidence, int64_t overlatency) {
  const int64_t h = EarlyStoppingMinPassing(percentile, confidence, overlatency);
  return h < 0 ? -1 : h + overlatency;
}

int64_t EarlyStoppingMinQueriesForEstimate(double percentile, double confidence) {
  return EarlyStoppingMinQueries(percentile, confidence, 1);
}

EarlyStoppingResult EarlyStoppingPercentile(const std::vector<int64_t>& sorted_ns,
                                            double percentile,
                                            double confidence) {
  EarlyStoppingResult result;
  const auto n = static_cast<int64_t>(sorted_ns.size());
  result.queries = n;
  if (!ValidArguments(percentile, confidence)) {
    result.reason = "early stopping needs a percentile and a confidence strictly between 0 and 1";
    return result;
  }
  const std::string what =
      PercentileName(percentile) + " with " + FormatPercent(confidence, "%g") + " confidence";
  result.queries_needed = EarlyStoppingMinQueriesForEstimate(percentile, confidence);
  if (n < result.queries_needed) {
    result.reason = what + " needs at least " + std::to_string(result.queries_needed) +
                    " queries for an early-stopping estimate; the run has " + std::to_string(n) +
                    " (run " + std::to_string(result.queries_needed - n) + " more)";
    return result;
  }
  // The largest t with h(t) + t <= n. As the odds fall with h, h(t) + t <= n holds exactly when
  // the odds of n - t passing and t over-latency queries are below 1 - c: one sum per t, not a
  // search for h(t). That holds for small t and fails beyond some t. For confidence above one
  // half, h(t) + t > t / (1 - p), so t stays below n (1 - p) + 1: each sum is O(n (1 - p)).
  const double log_threshold = std::log1p(-confidence);
  int64_t hi = n;
  if (confidence >= 0.5) {
    hi = std::min(n, static_cast<int64_t>(static_cast<double>(n) * (1.0 - percentile)) + 1);
  }
  const int64_t t = LargestTrue(1, std::max<int64_t>(1, hi), [&](int64_t overlatency) {
    return EarlyStoppingLogOdds(percentile, n - overlatency, overlatency) < log_threshold;
  });
  result.supported = true;
  result.overlatency = t;
  result.estimate_ns = sorted_ns[static_cast<size_t>(n - t)];
  result.reason = what + " supported by " + std::to_string(n) + " queries (at least " +
                  std::to_string(result.queries_needed) + " needed): the estimate " +
                  std::to_string(*result.estimate_ns) +
                  " ns is the slowest query after discarding the " +
                  std::to_string(t - 1) + " slowest";
  return result;
}

EarlyStoppingResult EarlyStoppingServer(const std::vector<int64_t>& latencies_ns, int64_t bound_ns,
                                        double percentile, double confidence) {
  EarlyStoppingResult result;
  const auto n = static_cast<int64_t>(latencies_ns.size());
  result.queries = n;
  if (!ValidArguments(percentile, confidence)) {
    result.reason = "early stopping needs a percentile and a confidence strictly between 0 and 1";
    return result;
  }
  const int64_t t = std::count_if(latencies_ns.begin(), latencies_ns.end(),
                                  [&](int64_t latency) { return latency > bound_ns; });
  result.overlatency = t;
  result.queries_needed = EarlyStoppingMinQueries(percentile, confidence, t);
  result.supported = result.queries_needed >= 0 && n >= result.queries_needed;
  const std::string what = PercentileName(percentile) + " within " + std::to_string(bound_ns) +
                           " ns with " + FormatPercent(confidence, "%g") + " confidence";
  const std::string counts = std::to_string(t) + " of " + std::to_string(n) +
                             " queries over the bound, at least " +
                             std::to_string(result.queries_needed) + " queries needed";
  if (result.supported) {
    result.reason = what + " supported: " + counts;
  } else {
    result.reason = what + " not supported: " + counts + " (run " +
                    std::to_string(result.queries_needed - n) +
                    " more, all within the bound, or lower the load)";
  }
  return result;
}

}  // namespace edgebench
