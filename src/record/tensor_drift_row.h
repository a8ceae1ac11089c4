// One tensor of a drift comparison, reference against candidate: what the record's tensor_drift
// section keeps for each (diagnose/drift.h compares).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

struct TensorDriftRow {
  std::string reference_name;
  std::string candidate_name;
  std::string node;     // the reference's producing node
  std::string op_type;
  std::vector<int64_t> shape;
  bool compared = false;
  std::string skip_reason;  // when not compared
  double sqnr_db = 0;
  double cosine = 0;
  double max_abs_error = 0;
  int64_t nonfinite = 0;
  // SQNR of the previous compared row with noise (finite SQNR) minus this one's; unset for the
  // first such row and for exact rows (+inf).
  std::optional<double> drop_db;
};

}  // namespace edgebench
