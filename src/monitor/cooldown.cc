#include "monitor/cooldown.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "core/strings.h"
#include "monitor/device_sensors.h"

namespace edgebench {
namespace {

constexpr const char* kForms = "use e.g. --cooldown 2C, --cooldown 2C,max=120s,fallback=10s or --cooldown 30s";

// "120s", "500ms", "2m" -> ms.
std::optional<int64_t> CooldownDurationMs(const std::string& text) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit = text.substr(used);
  double scale = 0;
  if (unit == "ms") scale = 1;
  else if (unit == "s") scale = 1000;
  else if (unit == "m" || unit == "min") scale = 60'000;
  if (scale == 0 || !(value >= 0) || value * scale > 86'400'000.0) return std::nullopt;
  return static_cast<int64_t>(std::llround(value * scale));
}

std::string Celsius(double mc) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f C", mc / 1000);
  return buffer;
}

}  // namespace

Result<CooldownSpec> ParseCooldown(const std::string& text) {
  CooldownSpec spec;
  spec.text = text;
  const std::vector<std::string> parts = SplitList(text, ',');
  if (parts.empty() || parts[0].empty()) return Status::Error("--cooldown '" + text + "': empty; " + kForms);
  const std::string& head = parts[0];
  if (head.back() == 'C' || head.back() == 'c') {
    size_t used = 0;
    double degrees = -1;
    try {
      degrees = std::stod(head.substr(0, head.size() - 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != head.size() - 1 || !(degrees > 0) || degrees > 100) {
      return Status::Error("--cooldown '" + text + "': '" + head + "' is not a temperature margin in (0, 100] C; " +
                           kForms);
    }
    spec.within_c = degrees;
  } else if (auto fixed = CooldownDurationMs(head)) {
    spec.fixed_ms = *fixed;
    if (parts.size() > 1) {
      return Status::Error("--cooldown '" + text + "': a fixed wait takes no options (max=, fallback= go with a "
                           "temperature margin); " + kForms);
    }
    return spec;
  } else {
    return Status::Error("--cooldown '" + text + "': '" + head + "' is neither a temperature margin (2C) nor a "
                         "duration (30s); " + kForms);
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    const size_t eq = parts[i].find('=');
    const std::string key = parts[i].substr(0, eq);
    const auto ms = eq == std::string::npos ? std::nullopt : CooldownDurationMs(parts[i].substr(eq + 1));
    if ((key != "max" && key != "fallback") || !ms) {
      return Status::Error("--cooldown '" + text + "': cannot read '" + parts[i] + "' (max=DURATION or "
                           "fallback=DURATION, e.g. max=120s); " + kForms);
    }
    (key == "max" ? spec.max_ms : spec.fixed_ms) = *ms;
  }
  return spec;
}

Cooldown::Cooldown(CooldownSpec spec, SensorRoots roots, std::function<int64_t()> now_ms,
                   std::function<void(int64_t)> sleep_ms, std::function<bool()> interrupted)
    : spec_(std::move(spec)),
      roots_(std::move(roots)),
      now_ms_(now_ms ? std::move(now_ms) : [] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
      }),
      sleep_ms_(sleep_ms ? std::move(sleep_ms)
                         : [](int64_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }),
      interrupted_(interrupted ? std::move(interrupted) : [] { return false; }) {}

std::optional<double> Cooldown::HottestMc(std::string* channel) const {
  SensorSet sensors = OpenDeviceSensors(roots_);
  const SensorSample sample = sensors.Sample(0);
  std::optional<double> hottest;
  for (size_t c = 0; c < sensors.channels().size(); ++c) {
    if (sensors.channels()[c].kind != ChannelKind::kTemperature || !sample.values[c]) continue;
    if (!hottest || *sample.values[c] > *hottest) {
      hottest = sample.values[c];
      if (channel) *channel = sensors.channels()[c].id;
    }
  }
  return hottest;
}

void Cooldown::ReadIdle() {
  if (spec_.within_c) idle_mc_ = HottestMc(&idle_channel_);
}

CooldownResult Cooldown::Wait() {
  CooldownResult result;
  result.spec = spec_.text;
  const int64_t start = now_ms_();
  // A wait in slices, so that Ctrl-C is not held up.
  auto sleep_until = [&](int64_t until) {
    while (!interrupted_() && now_ms_() < until) sleep_ms_(std::min<int64_t>(until - now_ms_(), 250));
  };
  if (!spec_.within_c || !idle_mc_) {
    result.mode = "fixed";
    sleep_until(start + spec_.fixed_ms);
    result.waited_ms = now_ms_() - start;
    result.reached = !interrupted_();
    result.detail = spec_.within_c ? "no temperature sensor could be read (see edgebench devices --sensors): waited the "
                                     "fixed " + std::to_string(spec_.fixed_ms) + " ms instead"
                                   : "a fixed wait of " + std::to_string(spec_.fixed_ms) + " ms";
    return result;
  }
  result.mode = "temperature";
  result.idle_mc = idle_mc_;
  const double target = *idle_mc_ + *spec_.within_c * 1000;
  std::string channel;
  result.start_mc = HottestMc(&channel);
  result.end_mc = result.start_mc;
  while (result.end_mc && *result.end_mc > target && now_ms_() - start < spec_.max_ms && !interrupted_()) {
    sleep_until(std::min(now_ms_() + 1000, start + spec_.max_ms));
    result.end_mc = HottestMc(&channel);
  }
  result.waited_ms = now_ms_() - start;
  if (!result.end_mc) {
    result.reached = false;
    result.detail = "the temperature sensor stopped reading while waiting";
  } else if (*result.end_mc > target) {
    result.reached = false;
    result.detail = channel + " still at " + Celsius(*result.end_mc) + " after " + std::to_string(result.waited_ms) +
                    " ms, above " + Celsius(target) + " (idle " + Celsius(*idle_mc_) + " + " +
                    Celsius(*spec_.within_c * 1000) + "); the case ran warm";
  } else {
    result.detail = channel + " at " + Celsius(*result.end_mc) + ", within " + Celsius(*spec_.within_c * 1000) +
                    " of idle " + Celsius(*idle_mc_);
  }
  return result;
}

}  // namespace edgebench
