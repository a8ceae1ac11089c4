// The figures derived from a case's monitor series (docs/monitoring.md, "Derived results"):
// energy and power over the measured phase, memory growth against queries, throttling events,
// and the device's state per window. Pure functions of the series and of the case's queries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "record/monitor_record.h"

namespace edgebench {

struct MonitorContext {
  int64_t measured_wall_ns = 0;  // the measured phase is [0, measured_wall_ns) on the series' axis
  // Windows of the measured phase ([start, end) ns); empty: windows of window_ns are cut here.
  std::vector<std::pair<int64_t, int64_t>> windows;
  int64_t window_ns = 5'000'000'000;
  // Work done against time: (ns after the phase start, queries completed by then), ascending.
  // Between points the count is interpolated linearly.
  std::vector<std::pair<int64_t, double>> progress;
  int64_t queries = 0;                // measured queries (requests, for language models)
  std::optional<int64_t> tokens;      // language models: tokens generated in the measured phase
  double max_growth_mb = 10;          // per 10,000 queries
  // Language models (record/energy_phases.h): each measured request's prefill [start, first
  // token] and decode [first token, last token] on the series' axis, with its prompt tokens and
  // the tokens decoded after the first. Empty for tensor models.
  struct LlmPhase {
    int64_t start_ns = 0, first_token_ns = 0, end_ns = 0;
    int64_t prompt_tokens = 0, decoded_tokens = 0;
  };
  std::vector<LlmPhase> llm_phases;
};

MonitorDerived DeriveMonitor(const MonitorSeries& series, const MonitorContext& context);

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

// The rules' constants, for tests and docs.
inline constexpr double kThrottleFrequencyDrop = 0.15;     // below (1 - this) x the baseline
inline constexpr int64_t kThrottleMinDurationNs = 2'000'000'000;  // for longer than this
inline constexpr double kBusyCoreUtilPercent = 50;
inline constexpr double kLeakMinObservedMb = 1.0;  // growth actually seen before a leak is called
inline constexpr double kLeakMinFitR2 = 0.5;
inline constexpr int kLeakMinPoints = 5;
// Queries the fit must span before a leak is called: an allocator's first requests (a vision
// request's image buffers, a KV cache's first pages) grow RSS by megabytes that a fit over
// three requests projects into gigabytes.
inline constexpr double kLeakMinQueries = 10;
// NVML clocks-throttle reasons that mean the device slowed itself: SW power cap (0x4), HW
// slowdown (0x8), SW thermal (0x20), HW thermal (0x40), HW power brake (0x80). Idle (0x1) and
// application clocks (0x2) do not.
inline constexpr uint64_t kNvmlSlowdownBits = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

}  // namespace edgebench
