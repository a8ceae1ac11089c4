#include "diagnose/drift.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include "core/tensor.h"

namespace edgebench {

DriftPairing PairDriftTensors(const std::vector<DriftTensor>& reference, const std::vector<DriftTensor>& candidate) {
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < candidate.size(); ++i) by_name.emplace(candidate[i].name, i);
  DriftPairing pairing;
  std::set<size_t> taken;
  for (size_t r = 0; r < reference.size(); ++r) {
    const std::string& name = reference[r].name;
    std::optional<size_t> chosen;
    for (const char* suffix : kCandidateNameRules) {
      auto it = by_name.find(name + suffix);
      if (it != by_name.end() && !taken.count(it->second)) {
        chosen = it->second;
        break;
      }
    }
    if (!chosen) {
      pairing.reference_only.push_back(r);
      continue;
    }
    pairing.pairs.push_back({r, *chosen});
    // The candidate's other copies of this value are accounted for by the pair.
    for (const char* suffix : kCandidateNameRules) {
      auto it = by_name.find(name + suffix);
      if (it != by_name.end()) taken.insert(it->second);
    }
    auto quantized = by_name.find(name + "_QuantizeLinear_Output");
    if (quantized != by_name.end()) taken.insert(quantized->second);
  }
  for (size_t c = 0; c < candidate.size(); ++c) {
    if (!taken.count(c)) pairing.candidate_only.push_back(c);
  }
  return pairing;
}

void DriftAccumulator::Add(const float* reference, const float* candidate, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const double a = reference[i];
    const double b = candidate[i];
    if (!std::isfinite(a) || !std::isfinite(b)) {
      ++nonfinite_;
      continue;
    }
    const double e = a - b;
    signal_ += a * a;
    noise_ += e * e;
    dot_ += a * b;
    reference_norm_ += a * a;
    candidate_norm_ += b * b;
    max_abs_ = std::max(max_abs_, std::abs(e));
  }
}

double DriftAccumulator::sqnr_db() const {
  if (nonfinite_ > 0) return std::numeric_limits<double>::quiet_NaN();
  if (noise_ == 0) return std::numeric_limits<double>::infinity();
  return 10 * std::log10(signal_ / noise_);
}

double DriftAccumulator::cosine() const {
  if (nonfinite_ > 0) return std::numeric_limits<double>::quiet_NaN();
  if (reference_norm_ == 0 && candidate_norm_ == 0) return 1;
  if (reference_norm_ == 0 || candidate_norm_ == 0) return 0;
  // Equal tensors are exactly 1 (the division below rounds to 1 +- 2e-16), and rounding never
  // takes it outside [-1, 1].
  if (noise_ == 0) return 1;
  return std::clamp(dot_ / (std::sqrt(reference_norm_) * std::sqrt(candidate_norm_)), -1.0, 1.0);
}

Result<TensorDriftRow> CompareDriftTensors(const DriftTensor& reference, const DriftTensor& candidate,
                                           int64_t samples, size_t chunk_elements) {
  TensorDriftRow row;
  row.reference_name = reference.name;
  row.candidate_name = candidate.name;
  row.node = reference.node;
  row.op_type = reference.op_type;
  row.shape = reference.shape;
  if (!reference.skip_reason.empty() || !candidate.skip_reason.empty()) {
    row.skip_reason = !reference.skip_reason.empty() ? "reference: " + reference.skip_reason
                                                     : "candidate: " + candidate.skip_reason;
    return row;
  }
  if (reference.shape != candidate.shape) {
    const bool same_count = ElementCount(reference.shape) == ElementCount(candidate.shape);
    row.skip_reason = "shapes differ: " + ShapeToString(reference.shape) + " vs " + ShapeToString(candidate.shape) +
                      (same_count ? " (same element count, another layout?)" : "");
    return row;
  }
  std::ifstream a(reference.file, std::ios::binary);
  std::ifstream b(candidate.file, std::ios::binary);
  if (!a || !b) {
    return Status::Error("cannot read the values of tensor '" + reference.name + "' ('" +
                         (!a ? reference.file : candidate.file) + "')");
  }
  const auto total = static_cast<uint64_t>(ElementCount(reference.shape)) * static_cast<uint64_t>(samples);
  chunk_elements = std::max<size_t>(chunk_elements, 1);
  std::vector<float> x(chunk_elements), y(chunk_elements);
  DriftAccumulator sums;
  for (uint64_t done = 0; done < total;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(chunk_elements, total - done));
    const auto bytes = static_cast<std::streamsize>(n * sizeof(float));
    if (!a.read(reinterpret_cast<char*>(x.data()), bytes) || !b.read(reinterpret_cast<char*>(y.data()), bytes)) {
      return Status::Error("the values of tensor '" + reference.name + "' end early: " +
                           std::to_string(samples) + " samples of " + ShapeToString(reference.shape) + " expected");
    }
    sums.Add(x.data(), y.data(), n);
    done += n;
  }
  row.compared = true;
  row.sqnr_db = sums.sqnr_db();
  row.cosine = sums.cosine();
  row.max_abs_error = sums.max_abs_error();
  row.nonfinite = sums.nonfinite();
  return row;
}

// The largest drop is where the noise relative to the signal (1 / SQNR in linear units) grows
// the most over the previous compared tensor: the layer that adds the most error. In dB alone a
// step from an identical tensor (+inf) would always look largest, and the first layer of every
// quantized model would be blamed.
DriftSummary SummarizeDrift(std::vector<TensorDriftRow>& rows, double min_sqnr_db) {
  DriftSummary summary;
  const auto noise_ratio = [](double sqnr_db) {
    return std::isnan(sqnr_db) ? std::numeric_limits<double>::infinity() : std::pow(10.0, -sqnr_db / 10);
  };
  // The previous row with noise: exact tensors (+inf) between noisy ones are side branches
  // (shape computations), not a place where the data path's error vanished.
  std::optional<double> previous;
  double largest_growth = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    TensorDriftRow& row = rows[i];
    if (!row.compared) continue;
    if (!summary.first_drift && !(row.sqnr_db >= min_sqnr_db)) summary.first_drift = i;
    if (std::isinf(row.sqnr_db) && row.sqnr_db > 0) continue;
    if (previous && std::isfinite(*previous) && std::isfinite(row.sqnr_db)) row.drop_db = *previous - row.sqnr_db;
    const double growth = noise_ratio(row.sqnr_db) - (previous ? noise_ratio(*previous) : 0.0);
    if (growth > largest_growth) {
      largest_growth = growth;
      summary.largest_drop = i;
    }
    previous = row.sqnr_db;
  }
  return summary;
}

}  // namespace edgebench
