// JSON for the numbers of records: infinities and NaN as strings (JSON has none), and optional
// values as null, never as a zero that reads as a measurement.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace edgebench {

inline nlohmann::json Number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  return v;
}

inline double NumberFrom(const nlohmann::json& j) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  return j.get<double>();
}

inline nlohmann::json OptionalNumber(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

inline nlohmann::json OptionalInt(const std::optional<int64_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }


}  // namespace edgebench
