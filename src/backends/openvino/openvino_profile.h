// OpenVINO's per-node profiling (ov::enable_profiling, InferRequest::get_profiling_info) summed
// into an OperatorProfile.
//
// get_profiling_info() describes the request's last inference only, so the session hands each
// measured run's nodes to an OpenVinoProfileAccumulator right after it. OpenVINO gives each
// node's duration but not its start, so the profile has operator times and no trace spans.
// Kept apart from the runtime's types so the summing is testable without OpenVINO.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include "core/operator_profile.h"

namespace edgebench {

// One node of one inference, as ov::ProfilingInfo tells it.
struct OpenVinoNodeTime {
  std::string node_name;
  std::string node_type;  // the executed layer's type: "FullyConnected", "Eltwise"...
  std::string exec_type;  // the kernel: "brgemm_avx512_BF16", "jit_avx2_FP32", "undef"...
  bool executed = false;  // false: NOT_RUN or OPTIMIZED_OUT (then it took no time)
  int64_t real_time_us = 0;
};

class OpenVinoProfileAccumulator {
 public:
  // `device`: edgebench's device name for the nodes ("cpu").
  explicit OpenVinoProfileAccumulator(std::string device) : device_(std::move(device)) {}

  // One run's nodes.
  void AddRun(const std::vector<OpenVinoNodeTime>& nodes);

  // The runs so far: one OperatorTime per (node, type) that executed in some run, each called
  // once per run; plus notes with the time by kernel.
  OperatorProfile Profile() const;

 private:
  std::string device_;
  int64_t runs_ = 0;
  std::vector<OperatorTime> operators_;
  std::map<std::pair<std::string, std::string>, size_t> index_;  // (node, type) -> operators_
  std::map<std::string, int64_t> ns_by_kernel_;
  std::vector<bool> ever_executed_;  // per operators_: EXECUTED in at least one run
};

}  // namespace edgebench
