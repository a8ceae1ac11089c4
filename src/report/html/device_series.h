// A monitor series as the report draws it: one value per sample from the channels of one kind
// (the hottest zone, the cores' mean frequency, the summed power), shared by the soak, memory
// and mix sections.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/monitor_record.h"

namespace edgebench {

// One value per sample from the channels of `kind`: their maximum ("max": temperature), mean
// ("mean": frequency, utilisation) or sum (any other `how`); absent where none of them read.
std::vector<std::optional<double>> Combine(const MonitorSeries& s, ChannelKind kind, const std::string& how);

// The device's power in W per sample: its power channels, or the device-total energy counters
// differenced between samples (undoing a wrap).
std::vector<std::optional<double>> PowerWatts(const MonitorSeries& s);

bool HasKind(const MonitorSeries& s, ChannelKind kind);

// One quantity per sample, and the factor that turns it into the unit the page shows.
struct ScaledSeries {
  std::string name;  // "temperature_c": the key in the data, with its unit
  std::vector<std::optional<double>> values;
  double scale = 1;
};

// The device's quantities the series has, in the page's units: the hottest zone's temperature
// (temperature_c), the cores' mean frequency (frequency_mhz), the power (power_w).
std::vector<ScaledSeries> DeviceQuantities(const MonitorSeries& s);

// The samples from `from_ns` on (the series' own times), thinned to `max_points`, as
// {"t_s": [...], name: [...]} per series given; times are (t + shift_ns) in seconds.
nlohmann::json SampledSeries(const MonitorSeries& s, int64_t from_ns, const std::vector<ScaledSeries>& series,
                             size_t max_points, int64_t shift_ns = 0);

}  // namespace edgebench
