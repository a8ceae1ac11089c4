// The figures derived from a case's monitor series (docs/monitoring.md, "Derived results"):
// energy and power over the measured phase, memory growth against queries, throttling events,
// and the device's state per window. Pure functions of the series and of the case's queries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "record/energy_integral.h"
#include "record/monitor_context.h"
#include "record/monitor_record.h"

namespace edgebench {

// Queries completed by time `t` on the series' axis, interpolated in `progress` (time, completed).
double CompletedAt(const std::vector<std::pair<int64_t, double>>& progress, int64_t t);

MonitorDerived DeriveMonitor(const MonitorSeries& series, const MonitorContext& context);

// Each accelerator's busy share (kDeviceBusy channels) over the measured phase [0, wall].
std::vector<DeviceBusyShare> DeriveDeviceBusy(const MonitorSeries& series, int64_t measured_wall_ns);

// The rules' constants, for tests and docs.
inline constexpr double kThrottleFrequencyDrop = 0.15;     // below (1 - this) x the baseline
inline constexpr int64_t kThrottleMinDurationNs = 2'000'000'000;  // for longer than this
inline constexpr double kBusyCoreUtilPercent = 50;
inline constexpr double kLeakMinObservedMb = 1.0;  // growth actually seen before a leak is called
inline constexpr double kLeakMinFitR2 = 0.5;
inline constexpr int kLeakMinPoints = 5;
// Queries the fit must span before a leak is called: an allocator's first requests (a vision
// request's image buffers, a KV cache's first pages) grow RSS by megabytes that a fit over
// three requests projects into gigabytes.
inline constexpr double kLeakMinQueries = 10;
// NVML clocks-throttle reasons that mean the device slowed itself: SW power cap (0x4), HW
// slowdown (0x8), SW thermal (0x20), HW thermal (0x40), HW power brake (0x80). Idle (0x1) and
// application clocks (0x2) do not.
inline constexpr uint64_t kNvmlSlowdownBits = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

}  // namespace edgebench
