#include "record/energy_integral.h"

#include <algorithm>

#include "core/strings.h"

namespace edgebench {
namespace {

using Values = std::vector<std::optional<double>>;

// Why a channel has no value at the bounds: its first failure, if it had one.
std::string FailureOf(const MonitorSeries& s, size_t channel) {
  for (const ChannelFailure& f : s.failures) {
    if (f.channel == channel) {
      return "it stopped reading " + FormatNumber("%.3f s", static_cast<double>(f.t_ns) / 1e9) + " after the measured phase started (" +
             f.error + ")";
    }
  }
  return "no sample brackets the phase";
}

// A channel's values over [a, b]: the present samples from the last one at or before `a` to
// the first one at or after `b`. Empty when the channel does not bracket [a, b].
struct Bracket {
  std::vector<size_t> index;  // into the series, ascending
};

Bracket BracketOf(const MonitorSeries& s, size_t c, int64_t a, int64_t b) {
  const Values& v = s.values[c];
  std::optional<size_t> first, last;
  for (size_t i = 0; i < s.t_ns.size(); ++i) {
    if (!v[i]) continue;
    if (s.t_ns[i] <= a) first = i;
    if (s.t_ns[i] >= b) {
      last = i;
      break;
    }
  }
  Bracket bracket;
  if (!first || !last) return bracket;
  for (size_t i = *first; i <= *last; ++i) {
    if (v[i]) bracket.index.push_back(i);
  }
  return bracket;
}

// Linear interpolation of y over x at `x0` (xs ascending, x0 within them).
double Interpolate(const std::vector<double>& xs, const std::vector<double>& ys, double x0) {
  auto it = std::upper_bound(xs.begin(), xs.end(), x0);
  if (it == xs.begin()) return ys.front();
  if (it == xs.end()) return ys.back();
  const size_t hi = static_cast<size_t>(it - xs.begin()), lo = hi - 1;
  if (xs[hi] == xs[lo]) return ys[hi];
  return ys[lo] + (ys[hi] - ys[lo]) * (x0 - xs[lo]) / (xs[hi] - xs[lo]);
}

// mW from µJ over ns.
double PowerMw(double uj, double ns) { return uj / ns * 1e6; }

std::string Watts(double mw) { return FormatNumber("%.4g", mw / 1000.0) + " W"; }

// A counter's step from reading `previous` to `value` over `dt_ns`: the µJ it stands for, or
// nullopt when it is no energy (a backward step no wrap explains: a reset or a reload of the
// sensor; a forward one implying more power than the sensor type reads). `why` says which.
std::optional<double> CounterStep(const Channel& ch, double previous, double value, double dt_ns, bool& wrapped,
                                  std::string& why) {
  const double bound = PlausiblePowerBoundMw(ch);
  wrapped = false;
  double delta = value - previous;
  if (delta < 0) {
    if (ch.wrap_uj <= 0) {
      why = "went back from " + FormatNumber("%.0f", previous) + " to " + FormatNumber("%.0f", value) +
            " uJ and has no known wrap range (max_energy_range_uj)";
      return std::nullopt;
    }
    const double through_wrap = delta + static_cast<double>(ch.wrap_uj);
    if (dt_ns > 0 && PowerMw(through_wrap, dt_ns) > bound) {
      why = "went back from " + FormatNumber("%.0f", previous) + " to " + FormatNumber("%.0f", value) +
            " uJ: a reset or a reload of the sensor, not a wrap (through its range of " +
            FormatNumber("%.0f", static_cast<double>(ch.wrap_uj)) + " uJ it would mean " +
            Watts(PowerMw(through_wrap, dt_ns)) + ", above the " + Watts(bound) + " such a sensor reads)";
      return std::nullopt;
    }
    wrapped = true;
    return through_wrap;
  }
  if (dt_ns > 0 && PowerMw(delta, dt_ns) > bound) {
    why = "jumped by " + FormatNumber("%.0f", delta) + " uJ in " + FormatNumber("%.3g", dt_ns / 1e6) + " ms (" +
          Watts(PowerMw(delta, dt_ns)) + ", above the " + Watts(bound) + " such a sensor reads)";
    return std::nullopt;
  }
  return delta;
}

}  // namespace

IntegratedEnergy EnergyBetween(const MonitorSeries& s, size_t c, int64_t a, int64_t b) {
  IntegratedEnergy e;
  const Channel& ch = s.channels[c];
  const Bracket bracket = BracketOf(s, c, a, b);
  if (bracket.index.size() < 2) {
    e.reason = ch.id + ": " + FailureOf(s, c);
    return e;
  }
  std::vector<double> xs, ys;
  int dropped = 0;
  std::string first_drop;
  if (ch.kind == ChannelKind::kEnergy) {
    double cumulative = 0;
    std::optional<size_t> previous;  // the last reading kept
    for (size_t i : bracket.index) {
      const double v = *s.values[c][i];
      if (previous) {
        bool wrapped = false;
        std::string why;
        const auto step = CounterStep(ch, *s.values[c][*previous], v,
                                      static_cast<double>(s.t_ns[i] - s.t_ns[*previous]), wrapped, why);
        if (!step && v < *s.values[c][*previous]) {
          // Backward and no wrap: what the counter counted across it is unknown.
          e.reason = ch.id + ": the counter " + why + "; its energy over the phase is unknown";
          return e;
        }
        if (!step) {  // an absurd reading: dropped, the next is taken from the last one kept
          if (dropped++ == 0) first_drop = why;
          continue;
        }
        e.wraps += wrapped ? 1 : 0;
        cumulative += *step;
      }
      previous = i;
      xs.push_back(static_cast<double>(s.t_ns[i]));
      ys.push_back(cumulative);
    }
  } else {
    // Power (µW): a reading below zero or above what the sensor type reads is dropped.
    for (size_t i : bracket.index) {
      const double uw = *s.values[c][i];
      if (uw < 0 || uw / 1000.0 > PlausiblePowerBoundMw(ch)) {
        if (dropped++ == 0) first_drop = "read " + Watts(uw / 1000.0) + " (the bound is 0 to " + Watts(PlausiblePowerBoundMw(ch)) + ")";
        continue;
      }
      xs.push_back(static_cast<double>(s.t_ns[i]));
      ys.push_back(uw);
    }
  }
  if (dropped > 0) {
    e.notes.push_back(ch.id + ": " + std::to_string(dropped) + " reading(s) dropped as physically absurd (the first " +
                      first_drop + ")");
    if (xs.size() < 2 || xs.front() > static_cast<double>(a) || xs.back() < static_cast<double>(b)) {
      e.reason = ch.id + ": too few readings left around the phase after dropping " + std::to_string(dropped) +
                 " absurd one(s) (the first " + first_drop + ")";
      return e;
    }
  }
  if (ch.kind == ChannelKind::kEnergy) {
    e.uj = Interpolate(xs, ys, static_cast<double>(b)) - Interpolate(xs, ys, static_cast<double>(a));
    return e;
  }
  // Power: the trapezoid rule over the samples, cut at a and b by interpolation.
  std::vector<double> px = {static_cast<double>(a)}, py = {Interpolate(xs, ys, static_cast<double>(a))};
  for (size_t i = 0; i < xs.size(); ++i) {
    if (xs[i] > static_cast<double>(a) && xs[i] < static_cast<double>(b)) {
      px.push_back(xs[i]);
      py.push_back(ys[i]);
    }
  }
  px.push_back(static_cast<double>(b));
  py.push_back(Interpolate(xs, ys, static_cast<double>(b)));
  double uj = 0;
  for (size_t i = 1; i < px.size(); ++i) uj += (py[i] + py[i - 1]) / 2 * (px[i] - px[i - 1]) * 1e-9;
  e.uj = uj;
  return e;
}

Values IntervalPowerMw(const MonitorSeries& s, size_t c, int64_t a, int64_t b, int64_t min_interval_ns) {
  const Channel& ch = s.channels[c];
  const Values& v = s.values[c];
  Values power(s.t_ns.size());
  std::optional<size_t> previous;
  for (size_t i = 0; i < s.t_ns.size(); ++i) {
    if (!v[i]) continue;
    if (s.t_ns[i] > a && s.t_ns[i] <= b) {
      if (ch.kind == ChannelKind::kPower) {
        if (*v[i] >= 0 && *v[i] / 1000.0 <= PlausiblePowerBoundMw(ch)) power[i] = *v[i] / 1000.0;
      } else if (previous && s.t_ns[i] - s.t_ns[*previous] >= min_interval_ns) {
        bool wrapped = false;
        std::string why;
        const double dt = static_cast<double>(s.t_ns[i] - s.t_ns[*previous]);
        if (const auto step = CounterStep(ch, *v[*previous], *v[i], dt, wrapped, why)) power[i] = PowerMw(*step, dt);
      }
    }
    if (!previous || ch.kind == ChannelKind::kPower || s.t_ns[i] - s.t_ns[*previous] >= min_interval_ns) {
      previous = i;
    }
  }
  return power;
}

bool IsEnergyChannel(const Channel& c) { return c.kind == ChannelKind::kEnergy || c.kind == ChannelKind::kPower; }

std::optional<double> DeviceTotalEnergyUj(const MonitorSeries& s, int64_t a, int64_t b, std::string* why) {
  std::vector<size_t> totals;
  for (size_t c = 0; c < s.channels.size(); ++c) {
    if (IsEnergyChannel(s.channels[c]) && s.channels[c].device_total) totals.push_back(c);
  }
  if (totals.empty()) {
    if (why) *why = "no channel measures the device's total";
    return std::nullopt;
  }
  double uj = 0;
  for (size_t c : totals) {
    const IntegratedEnergy e = EnergyBetween(s, c, a, b);
    if (!e.uj) {
      if (why) *why = e.reason;
      return std::nullopt;
    }
    uj += *e.uj;
  }
  return uj;
}

double PlausiblePowerBoundMw(const Channel& channel) {
  if (channel.reader == "rapl") return kMaxRaplPowerMw;
  if (channel.reader == "hwmon" || channel.reader == "nvml") return kMaxBoardPowerMw;
  return kMaxAnyPowerMw;
}

}  // namespace edgebench
