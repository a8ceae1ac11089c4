// The record's `tensor_drift` section (diagnose/candidate_drift.h fills it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record/tensor_drift_row.h"

namespace edgebench {

// The record's `tensor_drift` section: one side of a drift comparison. The reference's own case
// holds only what it ran; a candidate's holds the comparison.
struct TensorDriftRecord {
  bool is_reference = false;
  std::string reference_label;     // the variant or file as written
  std::string reference_artifact;
  std::string candidate_label;     // this side's label (the reference's own, for its case)
  int64_t samples = 0;
  std::vector<std::string> inputs;  // where the samples came from, one per model input
  double min_sqnr_db = 30;
  // Set when the candidate's inputs are not the reference's: no verdict is given.
  std::string not_comparable;
  std::string intermediates_unsupported;
  std::vector<TensorDriftRow> tensors;            // matched intermediates, in graph order
  std::vector<TensorDriftRow> final_outputs;      // the candidate (exposed) against the reference
  std::vector<TensorDriftRow> unexposed_outputs;  // the candidate as it runs against the reference
  // The exposed run's outputs against the unexposed run's: changed at all, and the lowest SQNR.
  std::optional<bool> exposure_changed_output;
  std::optional<double> exposure_output_sqnr_db;
  std::string exposure_text;  // which outputs changed and by how much
  std::string first_drift;    // the first tensor under min_sqnr_db; empty: none
  std::string largest_drop;
  int64_t matched = 0;
  int64_t skipped = 0;
  std::vector<std::string> reference_only;
  std::vector<std::string> candidate_only;
  std::map<std::string, int64_t> candidate_only_ops;  // op type -> tensors
  std::vector<std::string> findings;  // the verdict in words
  std::vector<std::string> errors;    // comparisons that could not be made
  // On a labelled data set: top-1 on these samples (the candidate as it runs, nothing exposed).
  std::optional<double> reference_top1;
  std::optional<double> top1;
  std::optional<double> top1_delta_points;
};

}  // namespace edgebench
