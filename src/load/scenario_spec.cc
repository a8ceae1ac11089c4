#include "load/scenario_spec.h"

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>


namespace edgebench {
bool ParseDecimal(const std::string& text, double& value) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return errno == 0 && end == text.c_str() + text.size() && std::isfinite(value);
}

std::string FormatRate(double qps) {
  // The shortest fixed-notation text that reads back as exactly this double: every accepted
  // rate round-trips, and two rates never share a scenario name (nor a case key). (%.6g cut
  // 1,000,000 to "1e+06" and a trailing-zero trim then to "1": a run at 1 QPS, VALID.)
  char buffer[512];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, qps, std::chars_format::fixed);
  if (written.ec != std::errc()) return std::to_string(qps);
  return std::string(buffer, written.ptr);
}

double RoundRate(double qps) {
  if (!(qps > 0) || !std::isfinite(qps)) return qps;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", qps);
  return std::strtod(buffer, nullptr);
}

Result<int64_t> ParseDurationMs(const std::string& text) {
  struct Unit {
    const char* suffix;
    double ms;
  };
  static const Unit kUnits[] = {{"ms", 1}, {"s", 1000}, {"m", 60'000}, {"h", 3'600'000}};
  const auto bad = [&] {
    return Status::Error("'" + text + "' is not a duration; write e.g. 500ms, 5s, 30m or 2h");
  };
  std::string number = text;
  double scale = 1000;  // a bare number is seconds
  for (const Unit& unit : kUnits) {
    const std::string suffix = unit.suffix;
    if (text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0) {
      number = text.substr(0, text.size() - suffix.size());
      scale = unit.ms;
      break;
    }
  }
  double value = 0;
  if (!ParseDecimal(number, value)) return bad();
  const double ms = value * scale;
  if (ms < 1) return Status::Error("duration '" + text + "' is shorter than a millisecond");
  if (ms > 7 * 24 * 3'600'000.0) return Status::Error("duration '" + text + "' is longer than a week");
  return static_cast<int64_t>(std::llround(ms));
}

}  // namespace edgebench
