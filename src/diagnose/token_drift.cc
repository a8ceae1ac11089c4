#include "diagnose/token_drift.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/greedy_token.h"

namespace edgebench {
namespace {

Status CheckFinite(std::span<const float> logits, const char* side) {
  for (size_t i = 0; i < logits.size(); ++i) {
    if (!std::isfinite(logits[i])) {
      return Status::Error(std::string("the ") + side + " logit of token " + std::to_string(i) + " is " +
                           std::to_string(logits[i]) + ", not a finite number");
    }
  }
  return Status::Ok();
}

}  // namespace

std::vector<double> LogSoftmax(std::span<const float> logits) {
  std::vector<double> out(logits.size());
  if (logits.empty()) return out;
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  double sum_exp = 0;
  for (float l : logits) sum_exp += std::exp(static_cast<double>(l) - max_logit);
  const double log_normalizer = max_logit + std::log(sum_exp);
  for (size_t i = 0; i < logits.size(); ++i) out[i] = static_cast<double>(logits[i]) - log_normalizer;
  return out;
}

Result<TokenComparison> CompareTokenLogits(std::span<const float> reference, std::span<const float> candidate,
                                           int32_t next_token) {
  if (reference.empty() || reference.size() != candidate.size()) {
    return Status::Error("the reference gives " + std::to_string(reference.size()) +
                         " logits and the candidate " + std::to_string(candidate.size()) +
                         ": both must give one per vocabulary token, the same vocabulary");
  }
  if (next_token < 0 || static_cast<size_t>(next_token) >= reference.size()) {
    return Status::Error("next token " + std::to_string(next_token) + " is outside the vocabulary of " +
                         std::to_string(reference.size()) + " tokens");
  }
  if (Status s = CheckFinite(reference, "reference"); !s.ok()) return s;
  if (Status s = CheckFinite(candidate, "candidate"); !s.ok()) return s;
  const std::vector<double> log_p_ref = LogSoftmax(reference);
  const std::vector<double> log_p_cand = LogSoftmax(candidate);
  TokenComparison c;
  for (size_t i = 0; i < log_p_ref.size(); ++i) {
    // exp of a very negative log-probability underflows to 0, and so does its term.
    c.kl_divergence += std::exp(log_p_ref[i]) * (log_p_ref[i] - log_p_cand[i]);
  }
  c.reference_top = GreedyToken(reference);
  c.candidate_top = GreedyToken(candidate);
  c.same_top = c.reference_top == c.candidate_top;
  const size_t next = static_cast<size_t>(next_token);
  c.delta_p = std::exp(log_p_cand[next]) - std::exp(log_p_ref[next]);
  return c;
}

ValueWithUncertainty MeanWithUncertainty(double sum, double sum_of_squares, int64_t count) {
  if (count < 1) return {};
  const double n = static_cast<double>(count);
  const double mean = sum / n;
  const double variance = sum_of_squares / n - mean * mean;
  return {mean, variance > 0 && count > 10 ? std::sqrt(variance / (n - 1)) : 0.0};
}

double InterpolatedPercentile(const std::vector<double>& sorted_values, double percent) {
  if (sorted_values.empty()) return 0;
  const double fraction = percent / 100.0;
  if (fraction <= 0) return sorted_values.front();
  if (fraction >= 1) return sorted_values.back();
  const double position = fraction * static_cast<double>(sorted_values.size() - 1);
  const size_t below = static_cast<size_t>(position);
  const size_t above = std::min(below + 1, sorted_values.size() - 1);
  const double weight = position - static_cast<double>(below);
  return (1 - weight) * sorted_values[below] + weight * sorted_values[above];
}

void TokenDriftAccumulator::Add(const TokenComparison& c) {
  ++count_;
  if (c.same_top) ++same_top_;
  sum_kld_ += c.kl_divergence;
  sum_kld2_ += c.kl_divergence * c.kl_divergence;
  const double dp2 = c.delta_p * c.delta_p;
  sum_delta_p_ += c.delta_p;
  sum_delta_p2_ += dp2;
  sum_delta_p4_ += dp2 * dp2;
  max_abs_delta_p_ = std::max(max_abs_delta_p_, std::fabs(c.delta_p));
  klds_.push_back(c.kl_divergence);
}

void TokenDriftAccumulator::Merge(const TokenDriftAccumulator& other) {
  count_ += other.count_;
  same_top_ += other.same_top_;
  sum_kld_ += other.sum_kld_;
  sum_kld2_ += other.sum_kld2_;
  sum_delta_p_ += other.sum_delta_p_;
  sum_delta_p2_ += other.sum_delta_p2_;
  sum_delta_p4_ += other.sum_delta_p4_;
  max_abs_delta_p_ = std::max(max_abs_delta_p_, other.max_abs_delta_p_);
  klds_.insert(klds_.end(), other.klds_.begin(), other.klds_.end());
}

TokenDriftSummary TokenDriftAccumulator::Summary() const {
  TokenDriftSummary s;
  s.positions = count_;
  for (double percent : kKldPercents) s.kld_percentiles.push_back({percent, 0});
  if (count_ == 0) return s;
  s.mean_kld = MeanWithUncertainty(sum_kld_, sum_kld2_, count_);
  std::vector<double> sorted = klds_;
  std::sort(sorted.begin(), sorted.end());
  s.max_kld = sorted.back();
  s.min_kld = sorted.front();
  s.median_kld = InterpolatedPercentile(sorted, 50);
  for (KldPercentile& p : s.kld_percentiles) p.kld = InterpolatedPercentile(sorted, p.percent);
  const double n = static_cast<double>(count_);
  const double same = static_cast<double>(same_top_) / n;
  s.same_top = {same, count_ > 1 ? std::sqrt(same * (1 - same) / (n - 1)) : 0.0};
  s.mean_delta_p = MeanWithUncertainty(sum_delta_p_, sum_delta_p2_, count_);
  const ValueWithUncertainty mean_square = MeanWithUncertainty(sum_delta_p2_, sum_delta_p4_, count_);
  const double rms = std::sqrt(mean_square.value);
  s.rms_delta_p = {rms, rms > 0 ? 0.5 / rms * mean_square.uncertainty : 0.0};
  s.max_abs_delta_p = max_abs_delta_p_;
  return s;
}

}  // namespace edgebench
