// A scenario as a case names it: "single-stream", "multi-stream:4", "server:200", "offline",
// "soak:30m", "llm", "burst:4/100ms", "camera:4@10fps". The text is what records and case keys
// carry; this is its parsed form, with its registry entry (load/scenario_registry.h).
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"
#include "load/settings.h"

namespace edgebench {

struct ScenarioEntry;

struct ScenarioSpec {
  // Its entry in the registry (load/scenario_registry.h); set by ParseScenario.
  const ScenarioEntry* entry = nullptr;
  int64_t streams = 1;      // multi-stream:N, burst:N
  double target_qps = 0;    // server:QPS
  int64_t duration_ms = 0;  // soak:DURATION
  int64_t period_ms = 0;    // burst:N/PERIOD
  double fps = 0;           // camera:N@FPS
  int64_t frame_queue = 1;  // camera: frames that may wait (1: drop, the newest replaces; 0: all queue)

  // The family without its parameter: "multi-stream", "server", ... (this and Canonical are
  // the entry's answers, defined with the registry: load/scenario_registry.cc)
  std::string family() const;
  // The canonical text: "multi-stream:4", "server:250", "soak:1800s".
  std::string Canonical() const;
};

// A non-negative decimal number ("250.5", "8") making up all of `text`: digits and a point, no
// sign, no exponent; false otherwise.
bool ParseDecimal(const std::string& text, double& value);

// A rate as a scenario text writes it: the shortest text that reads back as exactly `qps`, never
// an exponent ("250.5", "1000000", "0.0000953674"), so a scenario name, and the case key made
// from it, never stands for another rate.
std::string FormatRate(double qps);

// The server scenario's rates, inclusive.
inline constexpr double kMinServerQps = 1e-6;
inline constexpr double kMaxServerQps = 1e7;

// `qps` to 6 significant digits (141.42135... to 141.421): the rates a peak search computes,
// rounded before they run so that the name, the run and the answer hold the same number.
double RoundRate(double qps);

// "500ms", "5s", "30m", "2h" (a bare number is seconds) to milliseconds; an error says what
// was expected.
Result<int64_t> ParseDurationMs(const std::string& text);

}  // namespace edgebench
