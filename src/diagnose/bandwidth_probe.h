// Sustainable memory bandwidth, measured the way STREAM's triad does: a[i] = b[i] + s * c[i] over
// three arrays of doubles far larger than the last-level cache, 24 bytes counted per element (two
// reads, one write; the write-allocate read is not counted, as in STREAM). Each thread owns a
// contiguous slice it touched first (so its pages are local to it); a pass is timed from the
// release of every thread to the last one done; the best pass is the figure, the worst and the
// median are kept for the spread. bench/run_bandwidth_compare holds it to a triad written apart.
#pragma once

#include <cstdint>
#include <string>

#include "core/machine_limits.h"
#include "core/status.h"

namespace edgebench {

struct TriadOptions {
  int threads = 1;
  int64_t array_bytes = 0;  // each array; 0: DefaultTriadArrayBytes
  int passes = 10;
};

// The largest cache of CPU 0 in bytes, from /sys/devices/system/cpu/cpu0/cache (under `root`);
// 0 when the kernel does not say.
int64_t LastLevelCacheBytes(const std::string& root = "/");

// Four times the last-level cache (STREAM's rule), at least 64 MiB, at most an eighth of the
// memory for the three arrays together; `note` says when the cap keeps it under the rule.
int64_t DefaultTriadArrayBytes(int64_t last_level_cache_bytes, int64_t memory_total_bytes, std::string* note);

// An error when the arrays cannot be allocated or an option is out of range (threads >= 1,
// passes >= 1, arrays of at least one element per thread).
Result<BandwidthMeasurement> MeasureTriadBandwidth(const TriadOptions& options);

}  // namespace edgebench
