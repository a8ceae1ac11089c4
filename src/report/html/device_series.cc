#include "report/html/device_series.h"

#include <algorithm>
#include <cmath>

#include "report/html/report_labels.h"

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

std::vector<ScaledSeries> DeviceQuantities(const MonitorSeries& s) {
  std::vector<ScaledSeries> series;
  if (HasKind(s, ChannelKind::kTemperature)) {
    series.push_back({"temperature_c", Combine(s, ChannelKind::kTemperature, "max"), 1e-3});
  }
  if (HasKind(s, ChannelKind::kFrequency)) {
    series.push_back({"frequency_mhz", Combine(s, ChannelKind::kFrequency, "mean"), 1e-3});
  }
  if (HasKind(s, ChannelKind::kPower) || HasKind(s, ChannelKind::kEnergy)) {
    series.push_back({"power_w", PowerWatts(s), 1});
  }
  return series;
}

nlohmann::json SampledSeries(const MonitorSeries& s, int64_t from_ns, const std::vector<ScaledSeries>& series,
                             size_t max_points, int64_t shift_ns) {
  using nlohmann::json;
  auto round = [](double value, double unit) { return std::round(value / unit) * unit; };
  std::vector<size_t> kept;
  for (size_t i = 0; i < s.t_ns.size(); ++i) if (s.t_ns[i] >= from_ns) kept.push_back(i);
  json out = {{"t_s", json::array()}};
  for (const ScaledSeries& one : series) out[one.name] = json::array();
  for (size_t k : ThinnedIndices(kept.size(), max_points)) {
    const size_t i = kept[k];
    out["t_s"].push_back(round(static_cast<double>(s.t_ns[i] + shift_ns) / 1e9, 1e-4));
    for (const ScaledSeries& one : series) {
      const auto& v = one.values;
      const bool read = i < v.size() && v[i].has_value();
      out[one.name].push_back(read ? json(round(*v[i] * one.scale, 1e-3)) : json(nullptr));
    }
  }
  return out;
}

}  // namespace edgebench
