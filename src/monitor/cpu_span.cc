#include "monitor/cpu_span.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>

#include "monitor/cpu_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {

Result<CpuTimes> ReadCpuTimes(const SensorRoots& roots) {
  const std::string path = roots.Path("proc/stat");
  auto text = ReadSmallTextFile(path);
  if (!text.ok()) return Status::Error("cannot read " + path + ": " + text.error());
  CpuTimes t;
  for (const auto& [cpu, core] : ParseProcStat(text.value())) {
    t.machine_total_ticks += static_cast<double>(core.total);
    t.machine_busy_ticks += static_cast<double>(core.total - std::min(core.idle, core.total));
    ++t.cores;
  }
  if (t.cores == 0) return Status::Error(path + " has no cpuN lines");
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return Status::Error("getrusage failed");
  const auto seconds = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; };
  t.own_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  return t;
}

SpanBusy JudgeSpanBusy(const CpuTimes& before, const CpuTimes& after, double ticks_per_second, double max_share) {
  SpanBusy b;
  const double cores = std::max(after.cores, 1);
  const double total = after.machine_total_ticks - before.machine_total_ticks;
  if (!(total > 0) || !(ticks_per_second > 0)) return b;
  // The span's wall time in seconds: every core's ticks advance together.
  const double wall = total / cores / ticks_per_second;
  const double machine_cores = (after.machine_busy_ticks - before.machine_busy_ticks) / ticks_per_second / wall;
  const double own_cores = (after.own_seconds - before.own_seconds) / wall;
  b.others_cores = std::max(0.0, machine_cores - own_cores);
  b.share = b.others_cores / cores;
  b.busy = b.share > max_share;
  char text[256];
  std::snprintf(text, sizeof text, "other processes used %.2f of the %.0f cores (%.0f%%, %s the %.0f%% allowed) over %.1f s",
                b.others_cores, cores, 100.0 * b.share, b.busy ? "above" : "within", 100.0 * max_share, wall);
  b.figures = text;
  return b;
}

}  // namespace edgebench
