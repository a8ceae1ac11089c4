// Whether a runtime's outputs are ONNX's expected ones (`edgebench conformance`): the same type,
// the same shape, and each value within tolerance. Floats: |got - expected| <= atol + rtol x
// |expected| with ONNX's own tolerances for the case (float16: at least 1e-3 for both, half a
// float16 step near 1); NaN only where NaN is expected, an infinity only where the same one is.
// Integers and booleans: exactly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace edgebench {

struct OutputVerdict {
  bool pass = true;
  std::string detail;                // for a person, when not a pass: which output, where, by how much
  std::optional<double> max_error;  // the largest absolute difference of the values compared
};

struct ConformanceTolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

// The tolerance a type gets from the case's: float16's floor, exact for integers and booleans.
ConformanceTolerance ToleranceFor(DType dtype, ConformanceTolerance of_case);

// One output against its expected tensor.
OutputVerdict CompareOutput(const Tensor& got, const Tensor& expected, ConformanceTolerance of_case);

// Every expected output against the runtime's: matched by name, else by position when the
// runtime names its outputs otherwise; a missing output is a failed verdict.
OutputVerdict CompareOutputs(const std::vector<Tensor>& got, const std::vector<Tensor>& expected,
                             ConformanceTolerance of_case);

}  // namespace edgebench
