// A channel's energy and power over an interval, from its samples (docs/monitoring.md, "Energy,
// with a method"): a counter unwrapped through its range, a power channel integrated by
// trapezoids, both cut at the interval's bounds by interpolation, and readings no sensor of the
// kind could give dropped. What the monitor's derivation (monitor_derive) and the energy phases
// (energy_phases) both measure with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "record/monitor_record.h"

namespace edgebench {

// Energy in µJ over [a, b] from a counter or a power channel, with the wraps it undid and the
// readings it dropped as physically absurd.
struct IntegratedEnergy {
  std::optional<double> uj;
  int wraps = 0;
  std::string reason;
  std::vector<std::string> notes;
};

IntegratedEnergy EnergyBetween(const MonitorSeries& series, size_t channel, int64_t a, int64_t b);

// Power in mW over each sampling interval (i-1, i] inside [a, b]; nullopt where unknown.
// Intervals shorter than `min_interval_ns` (a boundary sample just after a tick) are skipped:
// a counter updated every millisecond cannot give a power over microseconds. Readings that are
// no energy or no plausible power give none.
std::vector<std::optional<double>> IntervalPowerMw(const MonitorSeries& series, size_t channel, int64_t a, int64_t b,
                                                   int64_t min_interval_ns);

// An energy counter or a power channel.
bool IsEnergyChannel(const Channel& channel);

// The device total's energy in uJ over [a, b] on the series' axis (the sum of the channels
// marked device_total, each unwrapped and interpolated as the phase's energy is); nullopt with
// `why` when a total channel does not bracket [a, b] or none exists.
std::optional<double> DeviceTotalEnergyUj(const MonitorSeries& series, int64_t a, int64_t b, std::string* why);

// The most power a sensor of each kind can read, stated: a reading that implies more (a power
// channel above it, an energy counter stepping faster than it) is a glitch, dropped with a note,
// and a counter that steps back by more than a wrap at this power explains is a reset or a
// reload of the sensor, whose energy over the phase is then unknown. RAPL: 1 kW per domain (the
// largest server packages draw about 500 W); hwmon and NVML: 3 kW (a board's input rail, a
// data-centre GPU at about 1 kW); any other reader: 10 kW.
inline constexpr double kMaxRaplPowerMw = 1'000'000;
inline constexpr double kMaxBoardPowerMw = 3'000'000;
inline constexpr double kMaxAnyPowerMw = 10'000'000;
double PlausiblePowerBoundMw(const Channel& channel);

}  // namespace edgebench
