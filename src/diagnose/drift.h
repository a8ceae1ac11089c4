// Where a candidate model (a quantized variant, another runtime) starts to differ from a
// reference: every intermediate tensor of both, matched by name, compared over all samples
// (`edgebench drift`, docs/drift.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "record/tensor_drift_row.h"

namespace edgebench {

// One side's tensor as drift reads it: float32 values in `file`, sample after sample.
struct DriftTensor {
  std::string name;
  std::string node;
  std::string op_type;
  std::vector<int64_t> shape;
  std::string file;  // empty: no values (skip_reason says why)
  std::string skip_reason;
};

// Which candidate tensor stands for reference tensor N (the first of these that exists):
//   N + "_DequantizeLinear_Output"  ONNX QDQ (onnxruntime.quantization): the dequantized value,
//                                   which is what the next layer reads
//   N                               the same name (float models, TFLite variants, and a QDQ
//                                   model's float value before its QuantizeLinear)
//   N + "_QuantizeLinear_Input"     ONNX QDQ: a graph output's float value, renamed so that the
//                                   output keeps its name on the DequantizeLinear
// The candidate's other QDQ copies of N (N + "_QuantizeLinear_Output", the int8 value) count as
// matched too, so they do not show as candidate-only.
inline constexpr const char* kCandidateNameRules[] = {"_DequantizeLinear_Output", "", "_QuantizeLinear_Input"};

struct DriftPairing {
  struct Pair {
    size_t reference = 0;
    size_t candidate = 0;
  };
  std::vector<Pair> pairs;                    // in the reference's order
  std::vector<size_t> reference_only;         // reference tensors with no candidate
  std::vector<size_t> candidate_only;         // candidate tensors no reference tensor took
};

DriftPairing PairDriftTensors(const std::vector<DriftTensor>& reference, const std::vector<DriftTensor>& candidate);

// Running sums over a tensor's elements, sample after sample.
class DriftAccumulator {
 public:
  void Add(const float* reference, const float* candidate, size_t count);
  double sqnr_db() const;  // 10 log10(sum ref^2 / sum (ref - cand)^2); +inf when equal
  double cosine() const;   // 1 when both are all zeros
  double max_abs_error() const { return max_abs_; }
  int64_t nonfinite() const { return nonfinite_; }  // NaN or infinity on either side

 private:
  double signal_ = 0, noise_ = 0, dot_ = 0, reference_norm_ = 0, candidate_norm_ = 0, max_abs_ = 0;
  int64_t nonfinite_ = 0;
};

// Compares the two files of a pair, reading `chunk_elements` values at a time from each (memory
// stays bounded whatever the tensor's size). Shapes must be equal; else the row is skipped
// with the reason. Errors: a file shorter than samples x elements, or unreadable.
Result<TensorDriftRow> CompareDriftTensors(const DriftTensor& reference, const DriftTensor& candidate,
                                           int64_t samples, size_t chunk_elements = 1 << 16);

struct DriftSummary {
  std::optional<size_t> first_drift;   // the first compared row with SQNR below the threshold (or NaN)
  std::optional<size_t> largest_drop;  // the row whose relative noise grew the most (see .cc)
};

// Fills each row's drop_db and finds the first drift and the largest drop.
DriftSummary SummarizeDrift(std::vector<TensorDriftRow>& rows, double min_sqnr_db);

}  // namespace edgebench
