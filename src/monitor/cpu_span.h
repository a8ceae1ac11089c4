// The busy-machine verdict (docs/monitoring.md, "A busy machine") for a measurement taken in
// edgebench's own process rather than in a worker under the sampler: `devices --limits`. The
// machine's CPU time (proc/stat) and this process's (getrusage) are read before and after; what
// the machine spent beyond this process is other processes' work. A limit measured while others
// took the cores is too low, and every later roofline share would be too high.
#pragma once

#include <string>

#include "core/status.h"
#include "monitor/sensor.h"

namespace edgebench {

struct CpuTimes {
  double machine_busy_ticks = 0;   // every core's user through steal, less idle and iowait
  double machine_total_ticks = 0;  // every core's user through steal
  int cores = 0;                   // the cpuN lines
  double own_seconds = 0;          // this process's user + system time, its threads included
};

// proc/stat under `roots` and getrusage(RUSAGE_SELF).
Result<CpuTimes> ReadCpuTimes(const SensorRoots& roots);

struct SpanBusy {
  bool busy = false;
  double others_cores = 0;  // cores' worth of other processes' work over the span
  double share = 0;         // others_cores / cores
  std::string figures;      // "other processes used 0.80 of the 2 cores (40%, above the 25% allowed)"
};

// The span from `before` to `after`; `ticks_per_second` is the kernel's USER_HZ. Busy when other
// processes took more than `max_share` of the cores (the runs' --max-busy-share).
SpanBusy JudgeSpanBusy(const CpuTimes& before, const CpuTimes& after, double ticks_per_second, double max_share);

}  // namespace edgebench
