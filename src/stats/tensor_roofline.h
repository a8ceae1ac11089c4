// How close a tensor model's run came to the machine's limits (docs/roofline.md): the work one
// query does (core/tensor_work.h) at the rate the run achieved, against two roofs. The memory
// roof: arithmetic intensity (operations per byte) x the measured bandwidth. The compute roof:
// the peak the same runtime reached on a large matrix product (`devices --limits`), at the
// model's precision, or the published peak a user gave. The lower roof at the model's intensity
// binds; the share is the achieved rate over it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/machine_limits.h"
#include "core/placement.h"
#include "core/tensor_work.h"
#include "stats/summary.h"

namespace edgebench {

struct TensorRoofline {
  std::string omitted;  // non-empty: why there is no roofline (nothing below is set)
  bool approximate = false;
  std::string precision;
  double flops = 0;      // per query
  double bytes = 0;      // per query, a floor
  double intensity = 0;  // flops / bytes
  double queries_per_s = 0;  // the measured throughput the achieved rates are taken at
  double achieved_gflops = 0;
  double achieved_gb_per_s = 0;
  // The memory roof.
  double bandwidth_gb_per_s = 0;
  int bandwidth_threads = 0;
  std::string bandwidth_source;
  // The compute roof: this runtime's own peak (0: none measured and none published). Where the
  // runtime ran the model's nodes on more than one device (a provider that left some to the
  // CPU), the highest peak among them: no device could have gone faster than the fastest.
  double compute_peak_gflops = 0;
  std::string compute_peak_target;  // whose measured peak it is ("ort:cpu"); empty for a published one
  std::string compute_peak_source;
  std::string compute_peak_missing;  // why there is none
  // min(compute peak, intensity x bandwidth); the memory roof alone when no compute peak is known.
  double attainable_gflops = 0;
  std::string bound;            // "memory" or "compute": which roof binds at this intensity
  double share = 0;             // achieved / attainable
  double compute_share = 0;     // achieved / compute peak (0: no peak known)
  double bandwidth_share = 0;   // achieved GB/s / bandwidth
  // Non-empty when a share is above 100%: why that can be, and what to do. A run cannot beat
  // the machine; it beat the limits as measured (on a busy machine?) or the bytes counted.
  std::string above_roof;

  bool computed() const { return omitted.empty(); }
};

// `target`: the record's backend:device; `threads`: the threads the session ran (0: every core).
// `placement`: where the runtime ran the nodes (null or unknown: on `target` alone).
// `limits`: the record's machine limits (null: none, `limits_missing` says why).
TensorRoofline ComputeTensorRoofline(const TensorWork& work, const LatencySummary& summary, const std::string& target,
                                     int threads, const Placement* placement, const MachineLimits* limits,
                                     const std::string& limits_missing);

nlohmann::json TensorRooflineToJson(const TensorRoofline& roofline);

// The "threads" option of a canonical target ("ort:cpu?threads=2&opt=all"); 0 when it has none
// or it is not a whole number above 0.
int TargetThreads(const std::string& canonical_target);

}  // namespace edgebench
