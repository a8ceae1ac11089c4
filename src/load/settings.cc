#include "load/settings.h"

#include <unistd.h>


namespace edgebench {

int64_t DefaultCaseMemoryMb() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;  // unknown: no limit
  return static_cast<int64_t>(pages) * page_size / (1024 * 1024) * 8 / 10;
}

Result<EffectiveRunSettings> Validate(const RunSettings& r) {
  auto bad = [](const std::string& what) { return Status::Error("bad settings: " + what); };
  if (r.warmup_queries < 0) return bad("--warmup must be 0 or more");
  if (r.min_queries < 1) return bad("--min-queries must be at least 1");
  if (r.min_duration_ms < 0) return bad("--min-duration must be 0 or more milliseconds");
  if (r.max_duration_ms < 1) return bad("--max-duration must be at least 1 millisecond");
  if (r.min_duration_ms > r.max_duration_ms) {
    return bad("--min-duration (" + std::to_string(r.min_duration_ms) +
               " ms) is longer than --max-duration (" + std::to_string(r.max_duration_ms) + " ms)");
  }
  if (r.max_queries < r.min_queries) {
    return bad("--max-queries (" + std::to_string(r.max_queries) + ") is below --min-queries (" +
               std::to_string(r.min_queries) + ")");
  }
  if (!(r.max_cv > 0)) return bad("--max-cv must be above 0");
  if (r.case_timeout_ms < 0) return bad("--timeout must be 0 (automatic) or more milliseconds");
  if (r.case_memory_mb < 0) return bad("--case-memory must be 0 (automatic) or more MiB");
  if (r.sessions != "per-stream" && r.sessions != "shared") {
    return bad("--sessions must be per-stream or shared, not '" + r.sessions + "'");
  }
  if (r.concurrency < 1 || r.concurrency > kMaxStreams) {
    return bad("--concurrency must be from 1 to " + std::to_string(kMaxStreams));
  }
  if (r.streams < 1 || r.streams > kMaxStreams) {
    return bad("--streams must be from 1 to " + std::to_string(kMaxStreams));
  }
  if (r.batch < 0 || r.batch > (int64_t{1} << 31)) return bad("--batch must be 0 (unset) or a batch size");
  if (r.window_ms < 1) return bad("--window must be at least 1 millisecond");
  // Each window of a long run keeps a latency histogram (about 14 KB): a run's windows are
  // bounded, so memory is. (--window 1ms over an hour would need 3.6 million of them, ~50 GB.)
  const int64_t windows = (r.max_duration_ms + r.window_ms - 1) / r.window_ms;
  if (windows > kMaxWindows) {
    const int64_t smallest = (r.max_duration_ms + kMaxWindows - 1) / kMaxWindows;
    return bad("--window " + std::to_string(r.window_ms) + "ms over a run of up to " +
               std::to_string(r.max_duration_ms) + " ms makes " + std::to_string(windows) +
               " windows; at most " + std::to_string(kMaxWindows) +
               " are kept (each holds a latency histogram of about 14 KB): use --window " + std::to_string(smallest) +
               "ms or more");
  }
  if (r.confidence != 0 && !(r.confidence >= 0.5 && r.confidence < 1)) {
    return bad("--confidence must be 0 (off) or from 0.5 to below 1, e.g. 0.99");
  }
  if (!(r.p99_bound_ms >= 0) || r.p99_bound_ms > 3.6e6) {
    return bad("--p99-bound-ms must be 0 (none) or a bound in milliseconds");
  }
  EffectiveRunSettings effective{r};
  if (effective.values.case_timeout_ms == 0) {
    // Loading and warmup come on top of the measured phase; allow them generously.
    effective.values.case_timeout_ms = 2 * r.max_duration_ms + 120000;
  }
  if (effective.values.case_memory_mb == 0) effective.values.case_memory_mb = DefaultCaseMemoryMb();
  return effective;
}

}  // namespace edgebench
