#include "diagnose/agreement.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "core/strings.h"
#include "core/tensor_values.h"

namespace edgebench {
namespace {

// A score vector: one axis with more than one element, all others 1.
bool IsScoreVector(const std::vector<int64_t>& shape) {
  int big = 0;
  for (int64_t d : shape) {
    if (d > 1) ++big;
  }
  return big == 1;
}

std::vector<size_t> TopK(const std::vector<double>& v, size_t k) {
  std::vector<size_t> index(v.size());
  std::iota(index.begin(), index.end(), 0);
  k = std::min(k, v.size());
  std::partial_sort(index.begin(), index.begin() + static_cast<long>(k), index.end(),
                    [&](size_t a, size_t b) { return v[a] > v[b] || (v[a] == v[b] && a < b); });
  index.resize(k);
  return index;
}

}  // namespace

Result<OutputAgreement> CompareOutput(const Tensor& reference, const Tensor& other) {
  auto ref = TensorValues(reference);
  auto x = TensorValues(other);
  if (!ref.ok()) return ref.status();
  if (!x.ok()) return x.status();
  const auto& a = ref.value();
  const auto& b = x.value();
  const std::string shapes = "reference " + ShapeToString(reference.shape) + ", compared output '" +
                             other.name + "' " + ShapeToString(other.shape);
  // Zero elements would give cosine 1 and SQNR +inf: a pass that compared nothing.
  if (a.empty() || b.empty()) {
    return Status::Error("output '" + reference.name + "' has no elements to compare (" + shapes +
                         "); check the --dim bindings and the model's outputs");
  }
  if (a.size() != b.size()) {
    return Status::Error("output '" + reference.name + "' has " + std::to_string(a.size()) +
                         " elements in the reference but " + std::to_string(b.size()) +
                         " in the compared output (" + shapes + ")");
  }
  OutputAgreement r;
  r.output = reference.name;
  r.shape = reference.shape;
  double dot = 0, norm_a = 0, norm_b = 0, signal = 0, noise = 0, sum_abs = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) ++r.reference_nonfinite;
    if (!std::isfinite(b[i])) ++r.other_nonfinite;
    const double d = std::abs(a[i] - b[i]);
    // std::max(m, NaN) keeps m: a NaN error must stay NaN, not vanish.
    if (std::isnan(d) || d > r.max_abs_error) r.max_abs_error = d;
    sum_abs += d;
    dot += a[i] * b[i];
    norm_a += a[i] * a[i];
    norm_b += b[i] * b[i];
    signal += a[i] * a[i];
    noise += (a[i] - b[i]) * (a[i] - b[i]);
  }
  r.mean_abs_error = sum_abs / static_cast<double>(a.size());
  if (norm_a == 0 && norm_b == 0) {
    r.cosine = 1;
  } else if (norm_a == 0 || norm_b == 0) {
    r.cosine = 0;
  } else {
    r.cosine = dot / (std::sqrt(norm_a) * std::sqrt(norm_b));
  }
  r.sqnr_db = noise == 0 ? std::numeric_limits<double>::infinity()
              : signal == 0 ? -std::numeric_limits<double>::infinity()
                            : 10.0 * std::log10(signal / noise);
  if (std::isnan(noise) || std::isnan(signal)) r.sqnr_db = std::numeric_limits<double>::quiet_NaN();
  // A NaN score has no rank: top-k over it would sort by a broken order and claim something.
  const auto has_nan = [](const std::vector<double>& v) {
    return std::any_of(v.begin(), v.end(), [](double s) { return std::isnan(s); });
  };
  if (IsScoreVector(reference.shape) && a.size() > 1 && !has_nan(a) && !has_nan(b)) {
    r.top1_agrees = TopK(a, 1) == TopK(b, 1);
    if (a.size() >= 5) {
      const auto ta = TopK(a, 5);
      const auto tb = TopK(b, 5);
      int common = 0;
      for (size_t i : ta) common += std::count(tb.begin(), tb.end(), i) ? 1 : 0;
      r.top5_overlap = common / 5.0;
    }
  }
  return r;
}

Result<std::vector<std::pair<size_t, size_t>>> PairOutputs(const std::vector<Tensor>& reference,
                                                           const std::vector<Tensor>& other) {
  std::vector<std::pair<size_t, size_t>> pairs;
  if (reference.empty()) {
    return Status::Error("the reference produced no outputs: there is nothing to compare");
  }
  // Names first when every reference output's name is the other's too (twins whose manifest maps
  // their outputs to common names): order and shape then do not matter.
  for (size_t i = 0; i < reference.size(); ++i) {
    std::vector<size_t> named;  // the other's outputs with this reference output's name
    for (size_t k = 0; k < other.size(); ++k) {
      if (other[k].name == reference[i].name) named.push_back(k);
    }
    if (reference[i].name.empty() || named.size() != 1) break;
    pairs.emplace_back(i, named[0]);
  }
  if (pairs.size() == reference.size()) return pairs;
  pairs.clear();
  if (reference.size() == other.size()) {
    bool same = true;
    for (size_t i = 0; i < reference.size(); ++i) same &= reference[i].shape == other[i].shape;
    if (same) {
      for (size_t i = 0; i < reference.size(); ++i) pairs.emplace_back(i, i);
      return pairs;
    }
  }
  // Runtimes may order outputs differently: pair by shape when each shape is unique.
  for (size_t i = 0; i < reference.size(); ++i) {
    std::vector<size_t> matches;
    for (size_t k = 0; k < other.size(); ++k) {
      if (other[k].shape == reference[i].shape) matches.push_back(k);
    }
    if (matches.size() != 1) {
      return Status::Error("cannot pair output '" + reference[i].name + "' " +
                           ShapeToString(reference[i].shape) + ": " +
                           std::to_string(matches.size()) + " outputs of the other artifact have that shape");
    }
    pairs.emplace_back(i, matches[0]);
  }
  return pairs;
}

void CheckTolerances(OutputAgreement& a, const Tolerances& t) {
  a.violations.clear();
  // Non-finite values fail whatever the tolerances: no metric over them means agreement.
  if (a.reference_nonfinite > 0 || a.other_nonfinite > 0) {
    const auto count = [](int64_t n) {
      return std::to_string(n) + (n == 1 ? " non-finite value" : " non-finite values");
    };
    std::string where;
    if (a.reference_nonfinite > 0) where = count(a.reference_nonfinite) + " in the reference";
    if (a.other_nonfinite > 0) {
      where += where.empty() ? count(a.other_nonfinite) + " in the compared output"
                             : ", " + std::to_string(a.other_nonfinite) + " in the compared output";
    }
    a.violations.push_back("output '" + a.output + "' has " + where + " (NaN or infinity)");
  }
  // Comparisons with NaN are false, so each check is written as "not within", and a NaN metric
  // with no tolerance asked of it is still not a pass.
  if (t.max_abs && !(a.max_abs_error <= *t.max_abs)) {
    a.violations.push_back("max abs error " + FormatNumber("%.3g", a.max_abs_error) + " > " + FormatNumber("%.3g", *t.max_abs));
  } else if (!t.max_abs && std::isnan(a.max_abs_error)) {
    a.violations.push_back("max abs error is NaN");
  }
  if (t.min_cosine && !(a.cosine >= *t.min_cosine)) {
    a.violations.push_back("cosine " + FormatNumber("%.6f", a.cosine) + " < " + FormatNumber("%.6f", *t.min_cosine));
  } else if (!t.min_cosine && std::isnan(a.cosine)) {
    a.violations.push_back("cosine is NaN");
  }
  if (t.min_sqnr_db && !(a.sqnr_db >= *t.min_sqnr_db)) {
    a.violations.push_back("SQNR " + FormatNumber("%.1f", a.sqnr_db) + " dB < " + FormatNumber("%.1f", *t.min_sqnr_db) + " dB");
  } else if (!t.min_sqnr_db && std::isnan(a.sqnr_db)) {
    a.violations.push_back("SQNR is NaN");
  }
  if (std::isnan(a.mean_abs_error) && a.violations.empty()) {
    a.violations.push_back("mean abs error is NaN");
  }
}

}  // namespace edgebench
