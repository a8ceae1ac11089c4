#include "report/compare_memory.h"

#include <cmath>
#include <cstdio>

namespace edgebench {
namespace {

constexpr double kMib = 1024.0 * 1024.0;

bool Leaks(const Record& r) {
  if (!r.monitor) return false;
  if (r.monitor->derived.memory.leak) return true;
  return r.monitor->leak_sites && r.monitor->leak_sites->leaks > 0;
}

}  // namespace

std::vector<MemoryChange> CompareMemory(const Record& b, const Record& c) {
  std::vector<MemoryChange> out;
  if (!b.monitor || !c.monitor) return out;
  const auto& base_peak = b.monitor->derived.memory.peak_rss_bytes;
  const auto& candidate_peak = c.monitor->derived.memory.peak_rss_bytes;
  if (base_peak && candidate_peak && *base_peak > 0) {
    MemoryChange m;
    m.name = "peak RSS";
    m.unit = "MiB";
    m.base = static_cast<double>(*base_peak) / kMib;
    m.candidate = static_cast<double>(*candidate_peak) / kMib;
    m.change = m.candidate / m.base - 1;
    const double grown_mib = m.candidate - m.base;
    const bool beyond = std::fabs(m.change) > kPeakRssNoise && std::fabs(grown_mib) > kPeakRssNoiseMib;
    m.direction = !beyond ? 0 : grown_mib > 0 ? 1 : -1;
    char note[160];
    std::snprintf(note, sizeof note,
                  "one reading per run: a change beyond %.0f%% and %.0f MiB is judged (more memory: slower)",
                  kPeakRssNoise * 100, kPeakRssNoiseMib);
    m.note = note;
    out.push_back(m);
  }
  const bool base_leaks = Leaks(b), candidate_leaks = Leaks(c);
  if (base_leaks != candidate_leaks) {
    MemoryChange m;
    m.name = "memory growth";
    m.unit = "leak";
    m.base = base_leaks ? 1 : 0;
    m.candidate = candidate_leaks ? 1 : 0;
    m.change = m.candidate - m.base;
    m.direction = candidate_leaks ? 1 : -1;
    m.note = candidate_leaks ? "NEW leaks and BASE did not (its notes say where)" : "BASE leaked and NEW does not";
    out.push_back(m);
  }
  return out;
}

}  // namespace edgebench
