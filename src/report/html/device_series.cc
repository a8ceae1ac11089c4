#include "report/html/device_series.h"

#include <algorithm>

namespace edgebench {

std::vector<std::optional<double>> Combine(const MonitorSeries& s, ChannelKind kind,
                                           const std::string& how) {
  std::vector<std::optional<double>> out(s.t_ns.size());
  for (size_t i = 0; i < s.t_ns.size(); ++i) {
    double total = 0;
    int n = 0;
    for (size_t c = 0; c < s.channels.size() && c < s.values.size(); ++c) {
      if (s.channels[c].kind != kind || i >= s.values[c].size() || !s.values[c][i]) continue;
      if (kind == ChannelKind::kPower && s.channels[c].part_of_total) continue;
      const double v = *s.values[c][i];
      total = n == 0 ? v : how == "max" ? std::max(total, v) : total + v;
      ++n;
    }
    if (n > 0) out[i] = how == "mean" ? total / n : total;
  }
  return out;
}

std::vector<std::optional<double>> PowerWatts(const MonitorSeries& s) {
  std::vector<std::optional<double>> power = Combine(s, ChannelKind::kPower, "sum");
  bool any = std::any_of(power.begin(), power.end(), [](const auto& v) { return v.has_value(); });
  if (any) {
    for (auto& v : power) if (v) *v /= 1e6;
    return power;
  }
  for (auto& v : power) v.reset();
  for (size_t c = 0; c < s.channels.size() && c < s.values.size(); ++c) {
    const Channel& ch = s.channels[c];
    if (ch.kind != ChannelKind::kEnergy || ch.part_of_total) continue;
    for (size_t i = 1; i < s.t_ns.size() && i < s.values[c].size(); ++i) {
      if (!s.values[c][i] || !s.values[c][i - 1] || s.t_ns[i] <= s.t_ns[i - 1]) continue;
      double delta_uj = *s.values[c][i] - *s.values[c][i - 1];
      if (delta_uj < 0 && ch.wrap_uj > 0) delta_uj += static_cast<double>(ch.wrap_uj);
      if (delta_uj < 0) continue;
      const double watts = delta_uj / (static_cast<double>(s.t_ns[i] - s.t_ns[i - 1]) / 1e3);
      power[i] = power[i].value_or(0) + watts;
    }
  }
  return power;
}

bool HasKind(const MonitorSeries& s, ChannelKind kind) {
  return std::any_of(s.channels.begin(), s.channels.end(),
                     [&](const Channel& c) { return c.kind == kind; });
}

}  // namespace edgebench
