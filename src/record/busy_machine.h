// Whether a case was measured beside someone else's work (docs/monitoring.md, "A busy
// machine"): from the monitor's per-core utilisation and the worker's own CPU over the measured
// phase. Pure functions of the series, so that the rule is tested on fake /proc trees.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "record/monitor_record.h"

namespace edgebench {

// The worker is starved when it got less than this share of the cores its threads asked for
// while other processes used at least half of what it lacked.
inline constexpr double kBusyWorkerMinShare = 0.6;
inline constexpr double kBusyShortfallTakenByOthers = 0.5;

// `threads` is the target's thread count (0: the runtime's default, unknown here).
BusyCheck CheckBusyMachine(const MonitorSeries& series, int64_t measured_wall_ns, int threads,
                           const MonitorSettings& settings);

}  // namespace edgebench
