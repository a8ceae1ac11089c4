#include "record/monitor_derive.h"

#include "record/energy_integral.h"
#include "record/energy_phases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace edgebench {
namespace {

using Values = std::vector<std::optional<double>>;

std::string Format(const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, a, b, c, d);
  return buffer;
}

double Seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

std::optional<double> Median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string ReaderReasons(const MonitorSeries& s, std::initializer_list<const char*> readers) {
  std::string text;
  for (const ReaderStatus& r : s.readers) {
    for (const char* name : readers) {
      if (r.reader == name && !r.reason.empty()) text += (text.empty() ? "" : "; ") + r.reader + ": " + r.reason;
    }
  }
  return text;
}

EnergyResult DeriveEnergy(const MonitorSeries& s, const MonitorContext& ctx, int64_t min_interval_ns) {
  EnergyResult result;
  const int64_t wall = ctx.measured_wall_ns;
  std::vector<size_t> totals;
  bool any = false;
  for (size_t c = 0; c < s.channels.size(); ++c) {
    const Channel& ch = s.channels[c];
    if (!IsEnergyChannel(ch)) continue;
    any = true;
    ChannelEnergy ce;
    ce.channel = ch.id;
    const IntegratedEnergy e = EnergyBetween(s, c, 0, wall);
    ce.wraps = e.wraps;
    ce.notes = e.notes;
    if (e.uj) {
      ce.energy_mj = *e.uj / 1000.0;
      if (wall > 0) ce.mean_power_mw = *ce.energy_mj / Seconds(wall);
      const Values power = IntervalPowerMw(s, c, 0, wall, min_interval_ns);
      for (const auto& p : power) {
        if (p && (!ce.peak_power_mw || *p > *ce.peak_power_mw)) ce.peak_power_mw = p;
      }
    } else {
      ce.reason = e.reason;
    }
    if (ch.device_total) totals.push_back(c);
    result.channels.push_back(std::move(ce));
  }
  if (!any) {
    const std::string why = ReaderReasons(s, {"rapl", "hwmon", "nvml"});
    result.reason = "no energy or power sensor" + (why.empty() ? std::string() : " (" + why + ")");
    return result;
  }
  if (totals.empty()) {
    result.reason = "no channel measures the device's total (a RAPL package, a board's input rail, a GPU); "
                    "each channel's energy is under channels";
    return result;
  }
  double total_mj = 0;
  std::vector<Values> powers;
  for (size_t c : totals) {
    result.total_channels.push_back(s.channels[c].id);
    const auto it = std::find_if(result.channels.begin(), result.channels.end(),
                                 [&](const ChannelEnergy& ce) { return ce.channel == s.channels[c].id; });
    if (!it->energy_mj) {
      result.reason = "the device total needs " + it->channel + ", which has no energy over the phase: " + it->reason;
      return result;
    }
    total_mj += *it->energy_mj;
    powers.push_back(IntervalPowerMw(s, c, 0, wall, min_interval_ns));
  }
  result.energy_mj = total_mj;
  if (wall > 0) result.mean_power_mw = total_mj / Seconds(wall);
  for (size_t i = 0; i < s.t_ns.size(); ++i) {
    double sum = 0;
    bool all = true;
    for (const Values& p : powers) {
      if (!p[i]) all = false;
      else sum += *p[i];
    }
    if (all && (!result.peak_power_mw || sum > *result.peak_power_mw)) result.peak_power_mw = sum;
  }
  if (ctx.queries > 0) result.per_query_mj = total_mj / static_cast<double>(ctx.queries);
  if (ctx.tokens && *ctx.tokens > 0) result.per_token_mj = total_mj / static_cast<double>(*ctx.tokens);
  return result;
}

std::optional<size_t> FindChannel(const MonitorSeries& s, ChannelKind kind) {
  for (size_t c = 0; c < s.channels.size(); ++c) {
    if (s.channels[c].kind == kind) return c;
  }
  return std::nullopt;
}


MemoryResult DeriveMemory(const MonitorSeries& s, const MonitorContext& ctx) {
  MemoryResult m;
  if (auto peak = FindChannel(s, ChannelKind::kRssPeak)) {
    for (const auto& v : s.values[*peak]) {
      if (v) m.peak_rss_bytes = static_cast<int64_t>(*v);
    }
  }
  const auto rss = FindChannel(s, ChannelKind::kRss);
  if (!rss) {
    const std::string why = ReaderReasons(s, {"process"});
    m.explanation = "no resident-memory channel" + (why.empty() ? std::string() : " (" + why + ")");
    return m;
  }
  std::vector<double> xs, ys;
  for (size_t i = 0; i < s.t_ns.size(); ++i) {
    const auto& v = s.values[*rss][i];
    if (!v || s.t_ns[i] < 0 || s.t_ns[i] > ctx.measured_wall_ns) continue;
    if (!m.rss_start_bytes) m.rss_start_bytes = static_cast<int64_t>(*v);
    m.rss_end_bytes = static_cast<int64_t>(*v);
    xs.push_back(CompletedAt(ctx.progress, s.t_ns[i]));
    ys.push_back(*v);
  }
  m.fit_points = static_cast<int>(xs.size());
  if (xs.size() < static_cast<size_t>(kLeakMinPoints)) {
    m.explanation = "no growth figure: " + std::to_string(xs.size()) + " memory samples in the measured phase, fewer than " +
                    std::to_string(kLeakMinPoints) + " (run longer or raise --sample-hz)";
    return m;
  }
  const double n = static_cast<double>(xs.size());
  double mx = 0, my = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  double sxx = 0, sxy = 0, syy = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    sxx += (xs[i] - mx) * (xs[i] - mx);
    sxy += (xs[i] - mx) * (ys[i] - my);
    syy += (ys[i] - my) * (ys[i] - my);
  }
  m.fit_queries = *std::max_element(xs.begin(), xs.end()) - *std::min_element(xs.begin(), xs.end());
  if (sxx <= 0) {
    m.explanation = "no growth figure: no query completed between the memory samples";
    return m;
  }
  const double slope = sxy / sxx;
  m.growth_bytes_per_query = slope;
  m.fit_r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1.0;
  const double mib = 1024.0 * 1024.0;
  m.projected_mb_per_10k_queries = slope * 10'000 / mib;
  const double observed_mb = slope * m.fit_queries / mib;
  const std::string numbers =
      Format("RSS grew %.0f bytes per query (least squares over %.0f samples and ", slope, n) +
      Format("%.0f queries, r2 %.2f), %.1f MB per 10,000 queries projected, ", m.fit_queries, m.fit_r2,
             *m.projected_mb_per_10k_queries) +
      Format("%.1f MB seen", observed_mb);
  if (*m.projected_mb_per_10k_queries > ctx.max_growth_mb && observed_mb >= kLeakMinObservedMb &&
      m.fit_r2 >= kLeakMinFitR2 && m.fit_queries >= kLeakMinQueries && !ctx.profiler.empty()) {
    m.profiler_growth = true;
    m.explanation = "profiler growth: " + numbers + Format(", over --max-growth-mb %g", ctx.max_growth_mb) +
                    "; not called a leak: " + ctx.profiler +
                    " kept its events in memory over the measured queries, and its growth cannot be told from "
                    "the model's (run the case without --profile to judge a leak)";
  } else if (*m.projected_mb_per_10k_queries > ctx.max_growth_mb && observed_mb >= kLeakMinObservedMb &&
             m.fit_r2 >= kLeakMinFitR2 && m.fit_queries >= kLeakMinQueries) {
    m.leak = true;
    m.explanation = "memory growth: " + numbers + Format(", over --max-growth-mb %g", ctx.max_growth_mb);
  } else {
    m.explanation = "no leak: " + numbers;
    if (*m.projected_mb_per_10k_queries > ctx.max_growth_mb) {
      m.explanation += observed_mb < kLeakMinObservedMb
                           ? Format(" (under the %.0f MB of growth that must be seen before a leak is called)",
                                    kLeakMinObservedMb)
                       : m.fit_r2 < kLeakMinFitR2
                           ? Format(" (the fit is too loose to call a leak: r2 under %.1f)", kLeakMinFitR2)
                           : Format(" (over %.0f queries: at least %.0f are needed before a leak is called)",
                                    m.fit_queries, kLeakMinQueries);
    }
  }
  return m;
}

// Busy cores' median frequency at each sample (nullopt where no core was busy or read).
Values BusyFrequency(const MonitorSeries& s) {
  std::map<int, size_t> util_of_cpu;
  for (size_t c = 0; c < s.channels.size(); ++c) {
    if (s.channels[c].kind == ChannelKind::kCpuUtil && s.channels[c].cpu >= 0) util_of_cpu[s.channels[c].cpu] = c;
  }
  Values busy(s.t_ns.size());
  for (size_t i = 0; i < s.t_ns.size(); ++i) {
    std::vector<double> freqs;
    for (size_t c = 0; c < s.channels.size(); ++c) {
      const Channel& ch = s.channels[c];
      if (ch.kind != ChannelKind::kFrequency || ch.cpu < 0 || !s.values[c][i]) continue;
      const auto util = util_of_cpu.find(ch.cpu);
      // Without utilisation every core counts as busy.
      if (util != util_of_cpu.end()) {
        const auto& u = s.values[util->second][i];
        if (!u || *u < kBusyCoreUtilPercent) continue;
      }
      freqs.push_back(*s.values[c][i]);
    }
    busy[i] = Median(std::move(freqs));
  }
  return busy;
}

// Runs of consecutive samples inside the measured phase where `below(i)` holds, as events from
// the first such sample to the first sample after it where it does not (or the last sample).
template <typename Predicate>
std::vector<std::pair<size_t, size_t>> Runs(const MonitorSeries& s, int64_t wall, Predicate below) {
  std::vector<std::pair<size_t, size_t>> runs;  // [first, end] sample indices; end: first not below, or last
  std::optional<size_t> start;
  size_t last_in = 0;
  for (size_t i = 0; i < s.t_ns.size(); ++i) {
    if (s.t_ns[i] < 0 || s.t_ns[i] > wall) continue;
    last_in = i;
    if (below(i)) {
      if (!start) start = i;
    } else if (start) {
      runs.push_back({*start, i});
      start.reset();
    }
  }
  if (start) runs.push_back({*start, last_in});
  return runs;
}

std::string ThrottleBitNames(uint64_t bits) {
  std::string names;
  const std::pair<uint64_t, const char*> known[] = {{0x4, "SW power cap"}, {0x8, "HW slowdown"},
                                                    {0x20, "SW thermal slowdown"}, {0x40, "HW thermal slowdown"},
                                                    {0x80, "HW power brake"}};
  for (const auto& [bit, name] : known) {
    if (bits & bit) names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}

void DeriveThrottling(const MonitorSeries& s, const MonitorContext& ctx, MonitorDerived& d) {
  const int64_t wall = ctx.measured_wall_ns;
  // Frequency: the busy cores below (1 - 15%) of the first window's median for over 2 s.
  bool any_frequency = false;
  for (const Channel& ch : s.channels) any_frequency |= ch.kind == ChannelKind::kFrequency && ch.cpu >= 0;
  if (!any_frequency) {
    const std::string why = ReaderReasons(s, {"cpufreq"});
    d.frequency_check = "not checked: no core frequency channel" + (why.empty() ? std::string() : " (" + why + ")");
  } else {
    const Values busy = BusyFrequency(s);
    const int64_t first_window_end = ctx.windows.empty() ? std::min(ctx.window_ns, wall) : ctx.windows.front().second;
    std::vector<double> baseline;
    for (size_t i = 0; i < s.t_ns.size(); ++i) {
      if (s.t_ns[i] >= 0 && s.t_ns[i] < first_window_end && busy[i]) baseline.push_back(*busy[i]);
    }
    if (baseline.size() < 3) {
      d.frequency_check = "not checked: " + std::to_string(baseline.size()) +
                          " samples with a busy core in the first window, fewer than 3";
    } else {
      d.baseline_frequency_khz = Median(baseline);
      const double limit = *d.baseline_frequency_khz * (1 - kThrottleFrequencyDrop);
      for (const auto& [first, end] : Runs(s, wall, [&](size_t i) { return busy[i] && *busy[i] < limit; })) {
        const int64_t duration = s.t_ns[end] - s.t_ns[first];
        if (duration <= kThrottleMinDurationNs) continue;
        double lowest = *busy[first];
        for (size_t i = first; i <= end; ++i) {
          if (busy[i] && *busy[i] < limit) lowest = std::min(lowest, *busy[i]);
        }
        d.throttling.push_back(
            {"frequency", "busy cores", s.t_ns[first], s.t_ns[end],
             Format("busy cores fell to %.0f MHz, %.0f%% below the first window's %.0f MHz, for %.1f s",
                    lowest / 1000, (1 - lowest / *d.baseline_frequency_khz) * 100,
                    *d.baseline_frequency_khz / 1000, Seconds(duration))});
      }
    }
  }
  for (size_t c = 0; c < s.channels.size(); ++c) {
    const Channel& ch = s.channels[c];
    const Values& v = s.values[c];
    if (ch.kind == ChannelKind::kThrottleCount) {
      // Counter increases between consecutive readings, merged while they keep increasing.
      std::optional<size_t> previous;
      std::optional<ThrottleEvent> open;
      double added = 0;
      auto close = [&] {
        if (!open) return;
        open->detail = ch.label + " rose by " + Format("%.0f", added);
        d.throttling.push_back(*open);
        open.reset();
        added = 0;
      };
      for (size_t i = 0; i < s.t_ns.size(); ++i) {
        if (!v[i]) continue;
        if (previous && s.t_ns[i] > 0 && s.t_ns[*previous] < wall && *v[i] > *v[*previous]) {
          if (!open) open = ThrottleEvent{"throttle_counter", ch.id, s.t_ns[*previous], s.t_ns[i], ""};
          open->end_ns = s.t_ns[i];
          added += *v[i] - *v[*previous];
        } else if (previous) {
          close();
        }
        previous = i;
      }
      close();
    } else if (ch.kind == ChannelKind::kThrottleReasons) {
      for (const auto& [first, end] : Runs(s, wall, [&](size_t i) {
             return v[i] && (static_cast<uint64_t>(*v[i]) & kNvmlSlowdownBits) != 0;
           })) {
        d.throttling.push_back({"gpu_throttle", ch.id, s.t_ns[first], s.t_ns[end],
                                ch.label + " reported " + ThrottleBitNames(static_cast<uint64_t>(*v[first]))});
      }
    } else if (ch.kind == ChannelKind::kTemperature) {
      for (const TripPoint& trip : ch.trips) {
        if (trip.type != "passive") continue;
        const double at = static_cast<double>(trip.temp_mc);
        for (const auto& [first, end] : Runs(s, wall, [&](size_t i) { return v[i] && *v[i] >= at; })) {
          double highest = 0;
          for (size_t i = first; i <= end; ++i) {
            if (v[i]) highest = std::max(highest, *v[i]);
          }
          d.throttling.push_back({"trip_point", ch.id, s.t_ns[first], s.t_ns[end],
                                  ch.label + Format(" reached %.1f C, at or over its passive trip point %.1f C",
                                                    highest / 1000, at / 1000)});
        }
      }
    }
  }
  std::sort(d.throttling.begin(), d.throttling.end(),
            [](const ThrottleEvent& a, const ThrottleEvent& b) { return a.start_ns < b.start_ns; });
}

void DeriveWindows(const MonitorSeries& s, const MonitorContext& ctx, MonitorDerived& d) {
  std::vector<std::pair<int64_t, int64_t>> windows = ctx.windows;
  if (windows.empty() && ctx.window_ns > 0) {
    for (int64_t start = 0; start < ctx.measured_wall_ns; start += ctx.window_ns) {
      windows.push_back({start, std::min(start + ctx.window_ns, ctx.measured_wall_ns)});
    }
  }
  const Values busy = BusyFrequency(s);
  std::vector<size_t> totals;
  for (size_t c = 0; c < s.channels.size(); ++c) {
    if (IsEnergyChannel(s.channels[c]) && s.channels[c].device_total) totals.push_back(c);
  }
  const auto rss = FindChannel(s, ChannelKind::kRss);
  const auto cpu = FindChannel(s, ChannelKind::kProcessCpu);
  for (const auto& [start, end] : windows) {
    MonitorWindow w;
    w.start_ns = start;
    w.end_ns = end;
    std::vector<double> freqs;
    double cpu_sum = 0;
    int cpu_n = 0;
    for (size_t i = 0; i < s.t_ns.size(); ++i) {
      if (s.t_ns[i] < start || s.t_ns[i] >= end) continue;
      if (busy[i]) freqs.push_back(*busy[i]);
      for (size_t c = 0; c < s.channels.size(); ++c) {
        if (s.channels[c].kind == ChannelKind::kTemperature && s.values[c][i] &&
            (!w.max_temperature_mc || *s.values[c][i] > *w.max_temperature_mc)) {
          w.max_temperature_mc = s.values[c][i];
        }
      }
      if (rss && s.values[*rss][i]) w.rss_end_bytes = s.values[*rss][i];
      if (cpu && s.values[*cpu][i]) {
        cpu_sum += *s.values[*cpu][i];
        ++cpu_n;
      }
    }
    w.busy_frequency_khz = Median(std::move(freqs));
    if (cpu_n > 0) w.process_cpu_percent = cpu_sum / cpu_n;
    if (!totals.empty() && end > start) {
      double uj = 0;
      bool all = true;
      for (size_t c : totals) {
        const IntegratedEnergy e = EnergyBetween(s, c, start, end);
        if (!e.uj) all = false;
        else uj += *e.uj;
      }
      if (all) w.mean_power_mw = uj / 1000.0 / Seconds(end - start);
    }
    for (const ThrottleEvent& e : d.throttling) {
      if (e.start_ns < end && e.end_ns >= start) ++w.throttle_events;
    }
    d.windows.push_back(w);
  }
}

}  // namespace

double CompletedAt(const std::vector<std::pair<int64_t, double>>& progress, int64_t t) {
  if (progress.empty() || t < progress.front().first) return 0;
  auto it = std::upper_bound(progress.begin(), progress.end(), t,
                             [](int64_t value, const std::pair<int64_t, double>& p) { return value < p.first; });
  if (it == progress.end()) return progress.back().second;
  const auto& hi = *it;
  const auto& lo = *(it - 1);
  if (hi.first == lo.first) return hi.second;
  return lo.second + (hi.second - lo.second) * static_cast<double>(t - lo.first) /
                         static_cast<double>(hi.first - lo.first);
}

MonitorDerived DeriveMonitor(const MonitorSeries& series, const MonitorContext& context) {
  MonitorDerived d;
  if (series.t_ns.empty()) return d;
  // Intervals under half a period come from boundary samples taken just after a tick.
  const int64_t min_interval_ns =
      series.effective_hz > 0 ? static_cast<int64_t>(0.5e9 / series.effective_hz) : 0;
  d.energy = DeriveEnergy(series, context, min_interval_ns);
  DeriveEnergyPhases(series, context, d.energy);
  d.memory = DeriveMemory(series, context);
  DeriveThrottling(series, context, d);
  DeriveWindows(series, context, d);
  d.device_busy = DeriveDeviceBusy(series, context.measured_wall_ns);
  return d;
}

std::vector<DeviceBusyShare> DeriveDeviceBusy(const MonitorSeries& s, int64_t measured_wall_ns) {
  std::vector<DeviceBusyShare> shares;
  for (size_t c = 0; c < s.channels.size(); ++c) {
    if (s.channels[c].kind != ChannelKind::kDeviceBusy) continue;
    DeviceBusyShare share{s.channels[c].id, s.channels[c].label, 0, 0, 0};
    double sum = 0;
    for (size_t i = 0; i < s.t_ns.size(); ++i) {
      if (s.t_ns[i] < 0 || s.t_ns[i] > measured_wall_ns || !s.values[c][i]) continue;
      sum += *s.values[c][i];
      share.max_percent = std::max(share.max_percent, *s.values[c][i]);
      ++share.samples;
    }
    if (share.samples == 0) continue;
    share.mean_percent = sum / share.samples;
    shares.push_back(share);
  }
  return shares;
}

}  // namespace edgebench
