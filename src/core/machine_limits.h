// What this machine can do at most, measured by `edgebench devices --limits` and cached per
// machine (docs/roofline.md): sustainable memory bandwidth (a STREAM-like triad) on one thread and
// on every usable core, with the method, sizes and spread of the passes, and the published peaks a
// user gave. Every run reads the cached figures into its records; the roofline is computed from
// them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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

struct MachineLimits {
  std::string machine;      // the key the cache is filed under (CPU model, cores, memory, host)
  std::string measured_at;  // UTC, ISO 8601
  std::optional<BandwidthMeasurement> bandwidth_one_thread;
  std::optional<BandwidthMeasurement> bandwidth_all_threads;
  // What the vendor publishes, when the user gave it (--peak-gbs, --peak-gflops); 0: not given.
  double published_peak_gb_per_s = 0;
  double published_peak_gflops = 0;
  std::string notes;        // e.g. arrays smaller than 4x the last-level cache on a small board

  // The memory roof a run on `threads` threads is held to: the all-cores figure for several
  // threads, the one-thread figure for one. Null when neither was measured.
  const BandwidthMeasurement* BandwidthFor(int threads) const;
};

nlohmann::json MachineLimitsToJson(const MachineLimits& limits);
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
