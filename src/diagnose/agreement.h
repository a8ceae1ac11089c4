// Output agreement between two runs of the same model: max and mean absolute error, cosine
// similarity, SQNR, and top-1/top-5 agreement for score vectors.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"
#include "core/tensor_values.h"
#include "record/output_agreement.h"

namespace edgebench {

// Compares one output with its reference; shapes must hold the same number of elements.
Result<OutputAgreement> CompareOutput(const Tensor& reference, const Tensor& other);

// Pairs outputs by name when each reference output's name is one of the other's, else by
// position when shapes agree, else by unique shape; error when impossible.
Result<std::vector<std::pair<size_t, size_t>>> PairOutputs(const std::vector<Tensor>& reference,
                                                           const std::vector<Tensor>& other);

// Fills `violations` from the tolerances.
void CheckTolerances(OutputAgreement& agreement, const Tolerances& tolerances);

}  // namespace edgebench
