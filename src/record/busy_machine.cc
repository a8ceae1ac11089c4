#include "record/busy_machine.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace edgebench {
namespace {

std::string BusyFormat(const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, a, b, c, d);
  return buffer;
}

}  // namespace

BusyCheck CheckBusyMachine(const MonitorSeries& s, int64_t measured_wall_ns, int threads,
                           const MonitorSettings& settings) {
  BusyCheck b;
  std::vector<size_t> util;
  std::optional<size_t> worker;
  for (size_t c = 0; c < s.channels.size(); ++c) {
    if (s.channels[c].kind == ChannelKind::kCpuUtil) util.push_back(c);
    if (s.channels[c].kind == ChannelKind::kProcessCpu) worker = c;
  }
  if (util.empty() || !worker) {
    b.unchecked_reason = util.empty() ? "no per-core utilisation was sampled (proc/stat)"
                                      : "the worker's own CPU time was not sampled";
    return b;
  }
  if (measured_wall_ns <= 0) {
    b.unchecked_reason = "the measured phase has no duration";
    return b;
  }
  b.cores = static_cast<int>(util.size());
  // Each sample's values cover the interval since the one before it: weigh each by how much of
  // that interval lies inside the measured phase [0, measured_wall_ns].
  double weight = 0, machine = 0, own = 0;
  for (size_t i = 1; i < s.t_ns.size(); ++i) {
    const int64_t from = std::max<int64_t>(s.t_ns[i - 1], 0);
    const int64_t to = std::min<int64_t>(s.t_ns[i], measured_wall_ns);
    if (to <= from) continue;
    const auto& w = s.values[*worker][i];
    if (!w) continue;
    double sum = 0;
    bool complete = true;
    for (size_t c : util) {
      if (!s.values[c][i]) {
        complete = false;
        break;
      }
      sum += *s.values[c][i];
    }
    if (!complete) continue;
    const double overlap = static_cast<double>(to - from);
    weight += overlap;
    machine += overlap * sum / 100.0;
    own += overlap * *w / 100.0;
    ++b.samples;
  }
  // Half the phase at least, in two intervals at least: one interval of a 10 Hz sampler over a
  // 50 ms phase judges the neighbours of a moment, not of the measurement.
  if (b.samples < 2 || weight < 0.5 * static_cast<double>(measured_wall_ns)) {
    b.unchecked_reason = BusyFormat("the samples cover %.0f%% of the %.3f s measured phase in %.0f interval(s); "
                                    "a verdict needs half of it in two intervals",
                                    100.0 * weight / static_cast<double>(measured_wall_ns),
                                    static_cast<double>(measured_wall_ns) / 1e9, b.samples);
    b.samples = 0;
    return b;
  }
  b.checked = true;
  b.machine_cores = machine / weight;
  b.worker_cores = own / weight;
  b.others_cores = std::max(0.0, b.machine_cores - b.worker_cores);
  b.others_share = b.others_cores / b.cores;
  // A target that states no thread count leaves the runtime its default, which may be one
  // thread or every core: what it asked for is unknown, and starvation is not judged.
  b.threads_asked = std::max(threads, 0);
  const double asked = std::min(b.threads_asked, b.cores);
  b.worker_share_of_asked = asked > 0 ? b.worker_cores / asked : 0;
  b.busy = b.others_share > settings.max_busy_share;
  const double shortfall = asked - b.worker_cores;
  b.starved = asked > 0 && b.worker_share_of_asked < kBusyWorkerMinShare &&
              b.others_cores >= kBusyShortfallTakenByOthers * shortfall;
  std::string reason;
  if (b.busy) {
    reason = BusyFormat("other processes used %.2f of the %.0f cores (%.0f%%, above the %.0f%% allowed) during the "
                        "measured phase",
                        b.others_cores, b.cores, 100.0 * b.others_share, 100.0 * settings.max_busy_share);
  }
  if (b.starved) {
    reason += (reason.empty() ? "" : "; ") +
              BusyFormat("the worker got %.2f cores of the %.0f its threads asked for (%.0f%%, below %.0f%%)",
                         b.worker_cores, asked, 100.0 * b.worker_share_of_asked, 100.0 * kBusyWorkerMinShare) +
              BusyFormat(" while other processes used %.2f", b.others_cores);
  }
  if (!reason.empty()) {
    b.reason = "busy machine: " + reason + BusyFormat(" (the machine %.2f cores, the worker %.2f)",
                                                      b.machine_cores, b.worker_cores);
    b.kept = settings.allow_busy;
  }
  return b;
}

}  // namespace edgebench
