// A monitor series as the report draws it: one value per sample from the channels of one kind
// (the hottest zone, the cores' mean frequency, the summed power), shared by the soak, memory
// and mix sections.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "record/monitor_record.h"

namespace edgebench {

// One value per sample from the channels of `kind`: their maximum ("max": temperature), mean
// ("mean": frequency, utilisation) or sum (any other `how`); absent where none of them read.
std::vector<std::optional<double>> Combine(const MonitorSeries& s, ChannelKind kind, const std::string& how);

// The device's power in W per sample: its power channels, or the device-total energy counters
// differenced between samples (undoing a wrap).
std::vector<std::optional<double>> PowerWatts(const MonitorSeries& s);

bool HasKind(const MonitorSeries& s, ChannelKind kind);

}  // namespace edgebench
