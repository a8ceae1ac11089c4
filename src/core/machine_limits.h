// What this machine can do at most, measured by `edgebench devices --limits` and cached per
// machine (docs/roofline.md): sustainable memory bandwidth (a STREAM-like triad) on one thread and
// on every usable core, with the method, sizes and spread of the passes, and the published peaks a
// user gave. Every run reads the cached figures into its records; the roofline is computed from
// them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/environment.h"
#include "core/status.h"

namespace edgebench {

struct BandwidthMeasurement {
  double gb_per_s = 0;        // the best pass, 1e9 bytes/s
  double worst_gb_per_s = 0;  // the slowest pass
  double median_gb_per_s = 0;
  int threads = 1;
  int64_t array_bytes = 0;    // each of the triad's three arrays
  int passes = 0;
  std::string method;         // "triad a[i] = b[i] + s*c[i], double, 24 bytes per element"
  // Best / worst - 1: how far apart the passes were (0.03 = 3%).
  double spread() const { return worst_gb_per_s > 0 ? gb_per_s / worst_gb_per_s - 1 : 0; }
};

// The highest operation rate a runtime reached on this machine: a large matrix product through
// it (`devices --limits`), best of several passes.
struct ComputePeak {
  std::string target;     // backend:device, e.g. "ort:cpu"
  std::string precision;  // "fp32" or "int8"
  double gflops = 0;      // the best pass, 1e9 operations/s (a multiply-add is 2)
  double median_gflops = 0;
  double worst_gflops = 0;
  int64_t size = 0;       // the product is size x size by size x size
  int threads = 0;        // as the runtime ran it (its effective option)
  int passes = 0;
  std::string method;     // "MatMul [1024x1024] x [1024x1024] through the runtime, float32"
  double spread() const { return worst_gflops > 0 ? gflops / worst_gflops - 1 : 0; }
};

struct MachineLimits {
  std::string machine;      // the key the cache is filed under (CPU model, cores, memory, host)
  std::string measured_at;  // UTC, ISO 8601
  std::optional<BandwidthMeasurement> bandwidth_one_thread;
  std::optional<BandwidthMeasurement> bandwidth_all_threads;
  // What the vendor publishes, when the user gave it (--peak-gbs, --peak-gflops); 0: not given.
  double published_peak_gb_per_s = 0;
  double published_peak_gflops = 0;
  std::string notes;        // e.g. arrays smaller than 4x the last-level cache on a small board
  std::vector<ComputePeak> compute_peaks;
  // Why a runtime's peak was not measured ("ort:dnnl fp32: provider not available").
  std::vector<std::string> compute_peaks_missing;

  // The memory roof a run on `threads` threads is held to: the all-cores figure for several
  // threads, the one-thread figure for one. Null when neither was measured.
  const BandwidthMeasurement* BandwidthFor(int threads) const;
  // The peak measured through `target` (backend:device) at `precision`; null when none was.
  const ComputePeak* PeakFor(const std::string& target, const std::string& precision) const;
};

// How a peak was measured, for a roofline's source: "MatMul float32 [...] through the runtime,
// 2 threads, best of 5", and "; the run used 1 thread" where a run held to it (`run_threads`; 0:
// not known) used another count.
std::string ComputePeakSource(const ComputePeak& peak, int run_threads);

nlohmann::json MachineLimitsToJson(const MachineLimits& limits);
// Figures a machine can have: bandwidths and peaks finite, above 0 and below any hardware's, at
// most 1000 peaks. An error names the figure.
Status CheckMachineLimitsPlausible(const MachineLimits& limits);
// The cache file is at most this large (a machine's limits are a few KiB).
inline constexpr uint64_t kMaxMachineLimitsFileBytes = 1u << 20;
Result<MachineLimits> MachineLimitsFromJson(const nlohmann::json& j);

// A machine's key: CPU model, logical cores, memory, hostname, from the environment already
// read; a file name's characters only.
std::string MachineKey(const Environment& environment);
// Where the limits of the machine `machine_key` names are cached: $EDGEBENCH_CACHE/limits/KEY.json,
// EDGEBENCH_CACHE defaulting to ~/.cache/edgebench. Empty when neither EDGEBENCH_CACHE nor HOME
// is set.
std::string MachineLimitsPath(const std::string& machine_key);
// The cached limits of the machine `environment` describes; nullopt when none were measured (or
// the file is unreadable: `why` says which).
std::optional<MachineLimits> LoadMachineLimits(const Environment& environment, std::string* why = nullptr);
// Under limits.machine's key. Written to a temporary file and renamed: two processes at once
// leave one whole file.
Status SaveMachineLimits(const MachineLimits& limits);

}  // namespace edgebench
