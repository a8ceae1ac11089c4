// One candidate against the reference, as `edgebench drift` judges it (docs/drift.md): every
// intermediate tensor matched by name and compared over all samples, the final outputs, the
// candidate run again with nothing exposed (does exposing change its output?), and, on a
// labelled data set, both sides' top-1. The answer is the record's `tensor_drift` section.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "diagnose/drift.h"
#include "record/tensor_drift_record.h"

namespace edgebench {

// What one side's worker wrote: its tensors' files and how it was fed.
struct DriftSideRun {
  int64_t samples = 0;
  std::vector<std::string> input_provenance;       // one per model input
  std::vector<std::vector<int64_t>> input_shapes;  // one per model input, as fed
  std::vector<DriftTensor> outputs;                // the model's outputs
  std::vector<DriftTensor> tensors;                // every intermediate, in execution order
  std::string intermediates_unsupported;           // the backend's reason, when it shows none
};

// Above this SQNR between the exposed and the unexposed run, the change is float rounding (a
// fusion the exposure stopped), not drift.
inline constexpr double kExposureRoundingOnlyDb = 100;

// Why the candidate's inputs are not the reference's (empty when they are): another number of
// inputs or another shape. Labelled images are laid out per model (NCHW or NHWC), so there the
// same dimensions in another order are the same images.
std::string InputsDiffer(const std::vector<std::vector<int64_t>>& reference,
                         const std::vector<std::vector<int64_t>>& candidate, bool labelled);

// Top-1 hits against the labels, from a run's class-score output (the only output, else the one
// shaped [1, classes]), sample by sample; an error when no output is class scores.
Result<int64_t> Top1Hits(const std::vector<DriftTensor>& outputs, const std::vector<int32_t>& labels);

// "name (node, op)", as the findings name a tensor.
std::string DriftRowLabel(const TensorDriftRow& row);

// The comparison of a candidate with the reference. `plain`: the candidate run with nothing
// exposed, or unset with `plain_error` saying why it did not run. `labels`: the data set's, or
// empty for seeded or file inputs.
TensorDriftRecord CompareCandidate(const DriftSideRun& reference, const DriftSideRun& exposed,
                                   const std::optional<DriftSideRun>& plain, const std::string& plain_error,
                                   const std::vector<int32_t>& labels, double min_sqnr_db);

}  // namespace edgebench
