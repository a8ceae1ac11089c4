// MLPerf LoadGen's early-stopping rule (loadgen/early_stopping.cc, results.cc; the MLPerf
// inference rules' appendix): how many queries a run needs before a latency percentile is
// supported with a given confidence, and the conservative estimate it then reports.
//
// The model: each query is over the latency bound independently with probability 1 - p. With
// t queries over the bound, a run of h + t queries supports "the p-th percentile is within the
// bound" with confidence c when observing t or fewer over-bound queries in h + t trials would
// be unlikely were the true over-bound probability 1 - p:
//     P(Binomial(h + t, 1 - p) <= t) = BetaRegularized(p; h, t + 1) < 1 - c.
// h(t) is the smallest such h. LoadGen uses c = 0.99 and tolerance d = 0 (p - d = p).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// LoadGen's confidence.
inline constexpr double kEarlyStoppingConfidence = 0.99;

// log P(Binomial(passing + overlatency, 1 - percentile) <= overlatency), i.e.
// log BetaRegularized(percentile; passing, overlatency + 1), summed in log space so that large
// counts (t in the thousands, h in the millions) neither underflow nor lose precision.
// 0 (probability 1) when passing is 0.
double EarlyStoppingLogOdds(double percentile, int64_t passing, int64_t overlatency);

// h(t): the smallest number of passing queries such that t over-latency queries still support
// `percentile` with `confidence`. LoadGen compares the odds strictly (odds < 1 - confidence);
// an exact tie cannot occur in floating point for c = 0.99. Requires percentile and
// confidence in (0, 1) and overlatency >= 0; returns -1 otherwise.
int64_t EarlyStoppingMinPassing(double percentile, double confidence, int64_t overlatency);

// The minimum total queries for `percentile` to be supported with `overlatency` queries over
// the bound: h(t) + t. At c = 0.99: p99 needs 459, 2,010 and 12,571 queries for t = 0, 10 and
// 100. -1 on invalid arguments (as above).
int64_t EarlyStoppingMinQueries(double percentile, double confidence, int64_t overlatency);

// The smallest run for which single-/multi-stream early stopping gives an estimate at all:
// EarlyStoppingMinQueries(p, c, 1), i.e. 64 (p90), 662 (p99), 6,636 (p99.9) at c = 0.99.
// Why t = 1 and not 0: these scenarios have no latency bound; the bound is the estimate
// itself, an observed latency, so the query that sets it (and every slower one) counts as
// over the bound. With t = 0 the bound would have to lie above every sample, which no sample
// can give. LoadGen's SingleStream and MultiStream start at t = 1 for this reason.
int64_t EarlyStoppingMinQueriesForEstimate(double percentile, double confidence);

struct EarlyStoppingResult {
  bool supported = false;
  int64_t queries = 0;         // queries in the run
  int64_t queries_needed = 0;  // the minimum for support (for the server: with the t observed)
  // Single-/multi-stream: the latency the true percentile lies below with the confidence.
  // Absent when unsupported, and always for the server (its bound is given, not estimated).
  std::optional<int64_t> estimate_ns;
  // Server: queries over the bound. Single-/multi-stream: the t of the estimate (the estimate
  // is the t-th slowest query; the t - 1 slower ones are discarded).
  int64_t overlatency = 0;
  std::string reason;  // why supported or not, with the numbers, for people
};

// Single-/multi-stream (LoadGen's rule): supported when the run has at least
// EarlyStoppingMinQueriesForEstimate queries; the estimate is then the t-th largest latency
// for the largest t with h(t) + t <= n (LoadGen: "discard the t - 1 highest latency queries,
// report the max of the rest"). `sorted_ns` must be sorted ascending. Multi-stream passes its
// query latencies (LoadGen: the max over a query's samples), single-stream its samples.
EarlyStoppingResult EarlyStoppingPercentile(const std::vector<int64_t>& sorted_ns,
                                            double percentile,
                                            double confidence = kEarlyStoppingConfidence);

// Server (LoadGen's rule): t = queries whose latency exceeds bound_ns (strictly, as LoadGen);
// supported iff total >= h(t) + t. Any order of latencies.
EarlyStoppingResult EarlyStoppingServer(const std::vector<int64_t>& latencies_ns, int64_t bound_ns,
                                        double percentile,
                                        double confidence = kEarlyStoppingConfidence);

}  // namespace edgebench
