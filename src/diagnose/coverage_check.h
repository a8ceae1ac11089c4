// A coverage table's prediction against what a runtime here actually placed: for a target whose
// device has a table (ort:xnnpack and xnnpack.onnx, litert:xnnpack and xnnpack.tflite), the
// model's nodes the table expects the device to take, and the nodes it took, by op type.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/placement.h"
#include "diagnose/coverage.h"
#include "core/model_ops.h"

namespace edgebench {

struct CoverageCheck {
  std::string target;
  std::string accelerator;  // the table's
  int64_t predicted_nodes = 0;
  int64_t total_nodes = 0;
  int64_t ran_nodes = -1;  // the model's nodes the device ran; -1: the runtime did not tell
  // Op types on which the table and the runtime disagree, with node counts.
  std::map<std::string, int64_t> listed_but_left_on_cpu;  // table: supported; ran on the CPU
  std::map<std::string, int64_t> unlisted_but_taken;       // table: unsupported; the device ran it
  std::string unknown_reason;                              // why ran_nodes is unknown
  // Why each op type above differs, by op type: the limit the table's source states and the
  // prediction does not check per node, or what the table cannot know.
  std::map<std::string, std::string> why;
};

// `placement`: the record's, for `device` (the target's device, named like the table).
CoverageCheck CheckCoverage(const std::string& target, const std::string& device, const ModelOps& model,
                            const SupportTable& table, const Placement& placement);

}  // namespace edgebench
