// Load settings: plain structs with units in the field names, requested and effective (validated
// by load/settings.h). Both go into the record, so they live below it.
#pragma once

#include <cstdint>
#include <string>

namespace edgebench {

struct RunSettings {
  int64_t warmup_queries = 20;
  int64_t min_queries = 100;
  int64_t min_duration_ms = 1000;
  int64_t max_duration_ms = 60000;
  // The measured phase also stops after this many queries, so that a sub-microsecond query
  // cannot fill memory and the store with samples; min_duration may then be unmet (a note).
  int64_t max_queries = 1'000'000;
  uint64_t seed = 0;
  double max_cv = 0.30;  // a coefficient of variation above this makes the result INVALID
  int64_t case_timeout_ms = 0;  // 0: derived from max_duration_ms (see Validate)
  // The worker's resident memory may not exceed this; over it, the case is an "oom" record.
  // 0: 80% of the machine's physical memory (see Validate).
  int64_t case_memory_mb = 0;

  // The load scenarios' shape (load/scenario_spec.h); single-stream ignores them.
  std::string sessions = "per-stream";  // multi-stream: a session per stream, or "shared"
  int64_t concurrency = 1;   // server and offline: sessions serving the queries
  int64_t batch = 0;         // offline: binds the model's batch dimension (0: as --dim says)
  int64_t streams = 1;       // soak: closed-loop streams
  int64_t window_ms = 5000;  // windows of soak and of the stability rule
  double confidence = 0;     // early stopping at this confidence (LoadGen: 0.99); 0: off
  double p99_bound_ms = 0;   // server: p99 above it is INVALID, and peak search's bound; 0: none
};

// The most windows (of window_ms over max_duration_ms) a run may cut: each keeps a latency
// histogram of about 14 KB, so 20,000 are about 280 MB. A soak of a day fits at the default 5 s
// window; a week's soak needs --window 31s or more.
inline constexpr int64_t kMaxWindows = 20'000;

// Checked, with derived values filled in.
struct EffectiveRunSettings {
  RunSettings values;
};

}  // namespace edgebench
