#include "diagnose/candidate_drift.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include "core/strings.h"
#include "core/tensor.h"
#include "stats/accuracy.h"

namespace edgebench {
namespace {

// The model's outputs of two runs, paired by name (else by position when both have one).
std::vector<TensorDriftRow> CompareOutputs(const std::vector<DriftTensor>& a, const std::vector<DriftTensor>& b,
                                           int64_t samples, std::vector<std::string>& errors) {
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t k = 0; k < b.size(); ++k) {
      if (a[i].name == b[k].name) pairs.push_back({i, k});
    }
  }
  if (pairs.empty() && a.size() == 1 && b.size() == 1) pairs.push_back({0, 0});
  std::vector<TensorDriftRow> rows;
  for (const auto& [i, k] : pairs) {
    auto row = CompareDriftTensors(a[i], b[k], samples);
    if (!row.ok()) {
      errors.push_back(row.error());
      continue;
    }
    rows.push_back(row.take());
  }
  if (pairs.empty()) errors.push_back("the model outputs share no name and are not one each: not compared");
  return rows;
}

}  // namespace

std::string InputsDiffer(const std::vector<std::vector<int64_t>>& reference,
                         const std::vector<std::vector<int64_t>>& candidate, bool labelled) {
  auto text = [](const std::vector<std::vector<int64_t>>& shapes) {
    std::string t;
    for (const auto& shape : shapes) t += (t.empty() ? "" : ", ") + ShapeToString(shape);
    return t.empty() ? std::string("none") : t;
  };
  bool same = reference.size() == candidate.size();
  for (size_t i = 0; same && i < reference.size(); ++i) {
    std::vector<int64_t> a = reference[i], b = candidate[i];
    if (labelled) {
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
    }
    same = a == b;
  }
  if (same) return "";
  return "its inputs are " + text(candidate) + " and the reference's " + text(reference) +
         ": drift compares the same inputs through both models, so they are not comparable; bind the same "
         "shapes with --dim or compare models exported with the same inputs";
}

Result<int64_t> Top1Hits(const std::vector<DriftTensor>& outputs, const std::vector<int32_t>& labels) {
  std::vector<const DriftTensor*> scores;
  for (const DriftTensor& d : outputs) {
    const int64_t count = ElementCount(d.shape);
    if (!d.file.empty() && !d.shape.empty() && d.shape.back() >= 2 && count == d.shape.back()) scores.push_back(&d);
  }
  if (scores.size() != 1) return Status::Error("no single output is class scores [1, classes]: no accuracy");
  const int64_t classes = scores[0]->shape.back();
  std::ifstream in(scores[0]->file, std::ios::binary);
  std::vector<float> values(static_cast<size_t>(classes));
  int64_t hits = 0;
  for (int32_t label : labels) {
    if (!in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)))) {
      return Status::Error("cannot read the class scores of every sample from " + scores[0]->file);
    }
    // The best class as accuracy ranks it: ties to the lower class, a NaN never best.
    const int32_t best = TopClasses(values.data(), classes, 1).front();
    if (!std::isnan(values[static_cast<size_t>(best)]) && best == label) ++hits;
  }
  return hits;
}

std::string DriftRowLabel(const TensorDriftRow& row) {
  return row.reference_name + " (" + (row.node.empty() ? "" : row.node + ", ") + row.op_type + ")";
}

TensorDriftRecord CompareCandidate(const DriftSideRun& reference, const DriftSideRun& exposed,
                                   const std::optional<DriftSideRun>& plain, const std::string& plain_error,
                                   const std::vector<int32_t>& labels, double min_sqnr_db) {
  TensorDriftRecord d;
  d.samples = reference.samples;
  d.inputs = reference.input_provenance;
  d.min_sqnr_db = min_sqnr_db;
  // Drift is the same inputs through both: a candidate fed other inputs (another input shape,
  // so other seeded values) gives no verdict, only why.
  d.not_comparable = InputsDiffer(reference.input_shapes, exposed.input_shapes, !labels.empty());
  if (!d.not_comparable.empty()) return d;
  d.intermediates_unsupported = !reference.intermediates_unsupported.empty()
                                    ? "reference: " + reference.intermediates_unsupported
                                    : exposed.intermediates_unsupported;
  std::vector<TensorDriftRow>& rows = d.tensors;
  DriftPairing pairing;
  if (d.intermediates_unsupported.empty()) {
    pairing = PairDriftTensors(reference.tensors, exposed.tensors);
    for (const auto& pair : pairing.pairs) {
      auto row = CompareDriftTensors(reference.tensors[pair.reference], exposed.tensors[pair.candidate],
                                     reference.samples);
      if (!row.ok()) {
        d.errors.push_back(row.error());
        continue;
      }
      rows.push_back(row.take());
    }
  }
  const DriftSummary summary = SummarizeDrift(rows, min_sqnr_db);
  d.final_outputs = CompareOutputs(reference.outputs, exposed.outputs, reference.samples, d.errors);
  std::vector<TensorDriftRow> exposure_rows;
  if (plain) {
    exposure_rows = CompareOutputs(exposed.outputs, plain->outputs, reference.samples, d.errors);
    d.unexposed_outputs = CompareOutputs(reference.outputs, plain->outputs, reference.samples, d.errors);
  } else {
    d.errors.push_back("the run without exposed intermediates " + plain_error);
  }
  for (const TensorDriftRow& row : rows) d.skipped += row.compared ? 0 : 1;
  for (size_t k : pairing.candidate_only) ++d.candidate_only_ops[exposed.tensors[k].op_type];
  d.matched = static_cast<int64_t>(pairing.pairs.size());
  for (size_t r : pairing.reference_only) d.reference_only.push_back(reference.tensors[r].name);
  for (size_t k : pairing.candidate_only) d.candidate_only.push_back(exposed.tensors[k].name);
  if (summary.first_drift) d.first_drift = rows[*summary.first_drift].reference_name;
  if (summary.largest_drop) d.largest_drop = rows[*summary.largest_drop].reference_name;

  // The verdict, in words.
  std::vector<std::string>& findings = d.findings;
  if (!d.intermediates_unsupported.empty()) {
    findings.push_back("intermediate tensors unsupported (" + d.intermediates_unsupported + "); final outputs only");
  } else if (summary.first_drift) {
    const TensorDriftRow& row = rows[*summary.first_drift];
    findings.push_back("first drift at " + DriftRowLabel(row) + ", SQNR " + FormatNumberOrInf("%.1f", row.sqnr_db) +
                       " dB < " + FormatNumberOrInf("%g", min_sqnr_db) + " dB");
  } else if (!rows.empty()) {
    findings.push_back("no tensor below " + FormatNumberOrInf("%g", min_sqnr_db) + " dB");
  }
  if (summary.largest_drop) {
    const TensorDriftRow& row = rows[*summary.largest_drop];
    std::string before = "from the input";
    for (size_t i = *summary.largest_drop; i-- > 0;) {
      if (rows[i].compared && !(std::isinf(rows[i].sqnr_db) && rows[i].sqnr_db > 0)) {
        before = FormatNumberOrInf("%.1f", rows[i].sqnr_db);
        break;
      }
    }
    findings.push_back("largest drop at " + DriftRowLabel(row) + ": " + before + " -> " +
                       FormatNumberOrInf("%.1f", row.sqnr_db) + " dB");
  }
  for (const TensorDriftRow& row : d.final_outputs) {
    if (row.compared) {
      findings.push_back("final output " + row.reference_name + " SQNR " + FormatNumberOrInf("%.1f", row.sqnr_db) + " dB");
    }
  }
  if (!labels.empty()) {
    auto reference_hits = Top1Hits(reference.outputs, labels);
    // The candidate as it runs (nothing exposed), else as exposed.
    auto hits = Top1Hits(plain ? plain->outputs : exposed.outputs, labels);
    if (!reference_hits.ok()) {
      d.errors.push_back("reference: " + reference_hits.error());
    } else if (!hits.ok()) {
      d.errors.push_back(hits.error());
    } else {
      const double n = static_cast<double>(labels.size());
      d.reference_top1 = static_cast<double>(reference_hits.value()) / n;
      d.top1 = static_cast<double>(hits.value()) / n;
      d.top1_delta_points = 100 * (*d.top1 - *d.reference_top1);
      findings.push_back("top-1 on these " + std::to_string(labels.size()) + " images " +
                         FormatNumberOrInf("%.2f", 100 * *d.top1) + "% against the reference's " +
                         FormatNumberOrInf("%.2f", 100 * *d.reference_top1) + "% (" +
                         FormatNumberOrInf("%+.2f", *d.top1_delta_points) + " points)");
    }
  }
  if (plain) {
    bool changed = false;
    double lowest = std::numeric_limits<double>::infinity();
    for (const TensorDriftRow& row : exposure_rows) {
      if (!row.compared) continue;
      if (row.max_abs_error != 0 || row.nonfinite > 0) {
        changed = true;
        lowest = std::isnan(row.sqnr_db) ? row.sqnr_db : std::min(lowest, row.sqnr_db);
        d.exposure_text += (d.exposure_text.empty() ? "" : "; ") + row.reference_name + ": SQNR " +
                           FormatNumberOrInf("%.1f", row.sqnr_db) + " dB, max abs " +
                           FormatNumberOrInf("%.3g", row.max_abs_error);
      }
    }
    for (const TensorDriftRow& row : d.unexposed_outputs) {
      if (changed && row.compared) {
        d.exposure_text += "; unexposed vs reference: " + row.reference_name + " SQNR " +
                           FormatNumberOrInf("%.1f", row.sqnr_db) + " dB";
      }
    }
    d.exposure_changed_output = changed;
    d.exposure_output_sqnr_db = lowest;
  }
  return d;
}

}  // namespace edgebench
