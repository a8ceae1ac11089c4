// Like with like: whether the rows of one table computed at one precision. A runtime may pick a
// lower precision by itself (OpenVINO runs f32 models in bf16 on CPUs that have it), and a faster
// row that computes less exactly is not a faster runtime. The table says so above its rows.
#pragma once

#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

// The precision a record's target computed at when it is not the model's own: the `precision`
// option the backend reports in the effective target (OpenVINO's inference precision), else the
// model variant; "" for the model's own (f32 and fp32 count as the model's own).
std::string ComputePrecisionOf(const Record& record);

// A measured row of a table: its target as asked and ComputePrecisionOf its record.
struct RowPrecision {
  std::string target;
  std::string precision;
};

// One line for the top of a table whose measured rows did not all compute at one precision,
// naming which target ran at which; "" when they did (or fewer than two rows measured).
std::string MixedPrecisionNote(const std::vector<RowPrecision>& rows);

}  // namespace edgebench
