// One output of a target against the reference's (`edgebench agree`), and the limits it is held
// to: what the record's agreement section keeps (diagnose/agreement.h compares).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// Output agreement limits (`edgebench agree`); unset ones are not checked.
struct Tolerances {
  std::optional<double> max_abs;
  std::optional<double> min_cosine;
  std::optional<double> min_sqnr_db;
};

struct OutputAgreement {
  std::string output;  // the reference's output name
  std::vector<int64_t> shape;
  double max_abs_error = 0;
  double mean_abs_error = 0;
  double cosine = 0;    // 1 when both are all zeros
  double sqnr_db = 0;   // 10 log10(sum ref^2 / sum (ref - x)^2); +inf when identical
  std::optional<bool> top1_agrees;    // score vectors only
  std::optional<double> top5_overlap;  // |top5(ref) & top5(x)| / 5, score vectors with >= 5 scores
  int64_t reference_nonfinite = 0;  // NaN and infinite values in the reference output
  int64_t other_nonfinite = 0;      // and in the compared one
  std::vector<std::string> violations;  // tolerances not met
};

}  // namespace edgebench
