// --cooldown: before each case, wait until the device is back near its idle temperature (or a
// fixed time where no temperature sensor exists), so that one case's heat does not slow the
// next (docs/monitoring.md, "Cooldown").
//   --cooldown 2C               hottest zone within 2 °C of its reading at the command's start
//   --cooldown 2C,max=120s,fallback=10s   give up after 120 s; wait 10 s without a sensor
//   --cooldown 30s              a fixed 30 s
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/status.h"
#include "record/monitor_record.h"
#include "monitor/sensor.h"

namespace edgebench {

struct CooldownSpec {
  std::string text;
  std::optional<double> within_c;  // by temperature; unset: fixed
  int64_t max_ms = 300'000;        // by temperature: the longest wait
  int64_t fixed_ms = 30'000;       // fixed, or by temperature without a sensor
};

// An error names the part of SPEC it could not read and shows the forms above.
Result<CooldownSpec> ParseCooldown(const std::string& text);

class Cooldown {
 public:
  // `now` in ms and `sleep_ms` are injectable for tests; `interrupted` ends a wait early.
  Cooldown(CooldownSpec spec, SensorRoots roots, std::function<int64_t()> now_ms = {},
           std::function<void(int64_t)> sleep_ms = {}, std::function<bool()> interrupted = {});

  // The hottest temperature now (m°C), and which channel; nullopt when nothing reads.
  std::optional<double> HottestMc(std::string* channel = nullptr) const;
  // Reads the idle temperature (call once, before the first case).
  void ReadIdle();
  // Waits as the spec says and reports it.
  CooldownResult Wait();

 private:
  CooldownSpec spec_;
  SensorRoots roots_;
  std::function<int64_t()> now_ms_;
  std::function<void(int64_t)> sleep_ms_;
  std::function<bool()> interrupted_;
  std::optional<double> idle_mc_;
  std::string idle_channel_;
};

}  // namespace edgebench
