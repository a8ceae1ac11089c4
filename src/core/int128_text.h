// 128-bit integers as decimal text: JSON numbers are doubles to most readers, so sums that may
// pass 2^53 (latency sums and sums of squares) are stored as decimal strings.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

namespace edgebench {

inline std::string Int128ToDecimal(__int128 value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  std::string digits;
  while (value != 0) {
    const int digit = static_cast<int>(value % 10);
    digits.push_back(static_cast<char>('0' + (negative ? -digit : digit)));
    value /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// A non-negative decimal integer of at most 38 digits (below 2^127); nullopt for anything else.
inline std::optional<__int128> Int128FromDecimal(const std::string& text) {
  if (text.empty() || text.size() > 38) return std::nullopt;
  __int128 value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace edgebench
