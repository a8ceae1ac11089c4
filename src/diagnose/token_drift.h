// How far a language model's next-token distributions drift from a reference model's, position
// by position, with the definitions of llama.cpp's `llama-perplexity --kl-divergence` (its
// "KL divergence statistics" and "Token probability statistics"), so numbers can be set beside
// the ones people publish for GGUF quantizations:
//   KLD        KL(P_ref || P_cand) = sum_i p_ref(i) (ln p_ref(i) - ln p_cand(i)), in nats, from
//              each side's log-softmax of its logits;
//   same top   whether the two argmaxes are the same token;
//   Δp         p_cand(next) - p_ref(next), `next` being the token that follows in the evaluated
//              text (so only positions that have one are scored);
//   mean ± uncertainty: sum/n and sqrt((sum²/n - mean²) / (n - 1)), 0 for n <= 10;
//   same-top share ± sqrt(p (1 - p) / (n - 1)); RMS Δp = sqrt(mean Δp²) ± the uncertainty of
//   mean Δp² times 1 / (2 RMS); percentiles by linear interpolation between sorted values at
//   fraction x (n - 1) (the median is the 50% one).
// Pure arithmetic: no runtime, no files.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"
#include "record/token_drift_summary.h"

namespace edgebench {

// ln softmax(logits), in double, through log-sum-exp about the largest logit. The logits must
// be finite and at least one.
std::vector<double> LogSoftmax(std::span<const float> logits);

// One position compared.
struct TokenComparison {
  double kl_divergence = 0;  // KL(P_ref || P_cand), nats
  bool same_top = false;     // argmax(reference) == argmax(candidate) (the lowest index on ties)
  double delta_p = 0;        // p_cand(next) - p_ref(next)
  int32_t reference_top = 0;
  int32_t candidate_top = 0;
};

// Compares one position's logits. An error when the sizes differ, a side is empty, a logit is
// not finite or `next_token` is outside the vocabulary.
Result<TokenComparison> CompareTokenLogits(std::span<const float> reference, std::span<const float> candidate,
                                           int32_t next_token);

// The value at `percent` (0..100) of sorted `values`, interpolated linearly at percent/100 x
// (n - 1). 0 for no values.
double InterpolatedPercentile(const std::vector<double>& sorted_values, double percent);

// Positions added one by one (or accumulators merged), summarized at the end. Keeps each
// position's KLD for the percentiles (8 bytes a position).
class TokenDriftAccumulator {
 public:
  void Add(const TokenComparison& comparison);
  void Merge(const TokenDriftAccumulator& other);
  int64_t count() const { return count_; }
  // All zero for no positions.
  TokenDriftSummary Summary() const;

 private:
  int64_t count_ = 0;
  int64_t same_top_ = 0;
  double sum_kld_ = 0;
  double sum_kld2_ = 0;
  double sum_delta_p_ = 0;
  double sum_delta_p2_ = 0;
  double sum_delta_p4_ = 0;
  double max_abs_delta_p_ = 0;
  std::vector<double> klds_;
};

// llama-perplexity's mean and its standard error from a sum, a sum of squares and a count:
// sum/n, and sqrt(variance / (n - 1)) when n > 10 and the variance is positive, else 0.
ValueWithUncertainty MeanWithUncertainty(double sum, double sum_of_squares, int64_t count);

}  // namespace edgebench
