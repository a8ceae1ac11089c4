#include "diagnose/conformance_check.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/tensor_values.h"

namespace edgebench {

namespace {

bool IsConformanceFloat(DType dtype) { return dtype == DType::kFloat32 || dtype == DType::kFloat16; }

std::string ConformanceNumber(double value) {
  std::ostringstream out;
  out.precision(7);
  out << value;
  return out.str();
}

// The position of a flat index in `shape`: "[1,2,0]".
std::string ConformanceIndexText(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] > 0) {
      index[d] = flat % shape[d];
      flat /= shape[d];
    }
  }
  return ShapeToString(index);
}

}  // namespace

ConformanceTolerance ToleranceFor(DType dtype, ConformanceTolerance of_case) {
  if (dtype == DType::kFloat16) return {std::max(of_case.rtol, 1e-3), std::max(of_case.atol, 1e-3)};
  if (dtype == DType::kFloat32) return of_case;
  return {0, 0};
}

OutputVerdict CompareOutput(const Tensor& got, const Tensor& expected, ConformanceTolerance of_case) {
  OutputVerdict verdict;
  const std::string what = "output '" + expected.name + "'";
  if (got.dtype != expected.dtype) {
    verdict.pass = false;
    verdict.detail = what + " is " + DTypeName(got.dtype) + " where ONNX expects " + DTypeName(expected.dtype);
    return verdict;
  }
  if (got.shape != expected.shape) {
    verdict.pass = false;
    verdict.detail = what + " has shape " + ShapeToString(got.shape) + " where ONNX expects " +
                     ShapeToString(expected.shape);
    return verdict;
  }
  auto got_values = TensorValues(got);
  auto expected_values = TensorValues(expected);
  if (!got_values.ok() || !expected_values.ok()) {
    verdict.pass = false;
    verdict.detail = what + ": " + (got_values.ok() ? expected_values.error() : got_values.error());
    return verdict;
  }
  const std::vector<double>& a = got_values.value();
  const std::vector<double>& e = expected_values.value();
  const ConformanceTolerance tolerance = ToleranceFor(expected.dtype, of_case);
  const bool floating = IsConformanceFloat(expected.dtype);
  double largest = 0;
  int64_t outside = 0;
  int64_t worst = -1;
  double worst_excess = -1;
  for (size_t i = 0; i < e.size() && i < a.size(); ++i) {
    bool ok = true;
    double error = 0;
    if (std::isnan(e[i]) || std::isnan(a[i])) {
      ok = floating && std::isnan(e[i]) && std::isnan(a[i]);
      if (!ok) error = std::nan("");
    } else if (std::isinf(e[i]) || std::isinf(a[i])) {
      ok = a[i] == e[i];
      if (!ok) error = INFINITY;
    } else {
      error = std::fabs(a[i] - e[i]);
      ok = floating ? error <= tolerance.atol + tolerance.rtol * std::fabs(e[i]) : a[i] == e[i];
    }
    if (!std::isnan(error)) {
      largest = std::max(largest, error);
    } else {
      largest = std::nan("");
    }
    if (!ok) {
      ++outside;
      const double excess = std::isnan(error) ? INFINITY : error;
      if (excess > worst_excess) {
        worst_excess = excess;
        worst = static_cast<int64_t>(i);
      }
    }
  }
  verdict.max_error = largest;
  if (outside == 0) return verdict;
  verdict.pass = false;
  const auto at = static_cast<size_t>(worst);
  verdict.detail = what + ": " + std::to_string(outside) + " of " + std::to_string(e.size()) +
                   " values outside the tolerance; the worst at " + ConformanceIndexText(worst, expected.shape) + " is " +
                   ConformanceNumber(a[at]) + " where ONNX expects " + ConformanceNumber(e[at]);
  if (floating) {
    verdict.detail += " (rtol " + ConformanceNumber(tolerance.rtol) + ", atol " + ConformanceNumber(tolerance.atol) + ")";
  } else {
    verdict.detail += " (" + DTypeName(expected.dtype) + ": exact)";
  }
  return verdict;
}

OutputVerdict CompareOutputs(const std::vector<Tensor>& got, const std::vector<Tensor>& expected,
                             ConformanceTolerance of_case) {
  OutputVerdict all;
  all.max_error = 0.0;
  // By name when every expected output's name is among the runtime's; else by position.
  bool by_name = true;
  for (const Tensor& e : expected) {
    if (std::none_of(got.begin(), got.end(), [&](const Tensor& g) { return g.name == e.name; })) by_name = false;
  }
  if (!by_name && got.size() < expected.size()) {
    all.pass = false;
    all.detail = "the runtime gave " + std::to_string(got.size()) + " outputs where ONNX expects " +
                 std::to_string(expected.size());
    return all;
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const Tensor* match = &got[i < got.size() ? i : 0];
    if (by_name) {
      match = &*std::find_if(got.begin(), got.end(), [&](const Tensor& g) { return g.name == expected[i].name; });
    }
    OutputVerdict one = CompareOutput(*match, expected[i], of_case);
    if (one.max_error && all.max_error) {
      all.max_error = std::isnan(*one.max_error) || std::isnan(*all.max_error)
                          ? std::nan("")
                          : std::max(*all.max_error, *one.max_error);
    }
    if (!one.pass && all.pass) {
      all.pass = false;
      all.detail = one.detail;
    }
  }
  if (all.pass) all.max_error.reset();
  return all;
}

}  // namespace edgebench
