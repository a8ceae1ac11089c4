// A candidate's drift from its reference's logits, token by token (llama-perplexity
// --kl-divergence's statistics), and one prompt's: what the record's token_drift section keeps
// (diagnose/token_drift.h computes them).
#pragma once

#include <cstdint>
#include <vector>

namespace edgebench {

struct ValueWithUncertainty {
  double value = 0;
  double uncertainty = 0;  // one standard error; 0 when too few positions to say
};

struct KldPercentile {
  double percent = 0;  // 99.9, 99, ...
  double kld = 0;
};

// The percentiles llama-perplexity prints, highest first.
inline constexpr double kKldPercents[] = {99.9, 99.0, 95.0, 90.0, 50.0, 10.0, 5.0, 1.0, 0.1};

struct TokenDriftSummary {
  int64_t positions = 0;
  ValueWithUncertainty mean_kld;
  double max_kld = 0;
  double min_kld = 0;
  double median_kld = 0;
  std::vector<KldPercentile> kld_percentiles;  // kKldPercents, in that order
  ValueWithUncertainty same_top;               // a fraction, 0..1
  ValueWithUncertainty mean_delta_p;           // a probability difference, -1..1
  ValueWithUncertainty rms_delta_p;
  double max_abs_delta_p = 0;
};

// One prompt's drift, in a candidate's answer.
struct PromptDrift {
  int64_t tokens = 0;
  int64_t positions = 0;  // tokens - 1: the last has no next token to score
  double mean_kld = 0;
  double max_kld = 0;
  double same_top = 0;  // a fraction
};

}  // namespace edgebench
