// Load settings' validation: requested settings (core/run_settings.h) validated once into
// effective ones; both go into the record. Bad values fail fast.
#pragma once

#include <cstdint>
#include <string>

#include "core/run_settings.h"
#include "core/status.h"

namespace edgebench {

// The largest streams, concurrency or soak length a case may ask for: beyond them a typo, not
// a benchmark (a thread and a session per stream).
inline constexpr int64_t kMaxStreams = 1024;

Result<EffectiveRunSettings> Validate(const RunSettings& requested);

// 80% of physical memory, in MiB: a runaway case is stopped before the machine's OOM killer
// picks a victim (perhaps edgebench itself, perhaps something else).
int64_t DefaultCaseMemoryMb();

}  // namespace edgebench
