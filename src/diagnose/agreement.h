// Output agreement between two runs of the same model: max and mean absolute error, cosine
// similarity, SQNR, and top-1/top-5 agreement for score vectors.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"
#include "core/tensor_values.h"

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

// Compares one output with its reference; shapes must hold the same number of elements.
Result<OutputAgreement> CompareOutput(const Tensor& reference, const Tensor& other);

// Pairs outputs by name when each reference output's name is one of the other's, else by
// position when shapes agree, else by unique shape; error when impossible.
Result<std::vector<std::pair<size_t, size_t>>> PairOutputs(const std::vector<Tensor>& reference,
                                                           const std::vector<Tensor>& other);

// Fills `violations` from the tolerances.
void CheckTolerances(OutputAgreement& agreement, const Tolerances& tolerances);

}  // namespace edgebench
