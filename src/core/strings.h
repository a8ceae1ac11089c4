// Small string helpers shared across the tree.
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace edgebench {

// "a, b, c" from {"a", "b", "c"} with separator ", "; "" for none.
inline std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) joined += separator;
    joined += parts[i];
  }
  return joined;
}

// Whether `text` begins with `prefix`.
inline bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Whether `text` ends with `suffix`.
inline bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// `text` without the spaces and tabs around it.
inline std::string TrimBlanks(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

// The text with ASCII letters in lower case ("Vulkan0" -> "vulkan0", ".ONNX" -> ".onnx").
inline std::string ToLowerAscii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// One number through a printf format ("%.3g"), for messages.
inline std::string FormatNumber(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// A fraction as a percentage through a printf format for the number: FormatPercent(0.125, "%.1f")
// is "12.5%", with "%+.1f" "+12.5%". The one percent formatter: each caller keeps its format.
inline std::string FormatPercent(double fraction, const char* number_format) {
  return FormatNumber(number_format, fraction * 100) + "%";
}

// "1200000000 bytes (1.2 GB)", for messages about sizes refused before allocating.
inline std::string BytesAndGigabytes(uint64_t bytes) {
  char gb[32];
  std::snprintf(gb, sizeof gb, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return std::to_string(bytes) + " bytes (" + gb + ")";
}

// As FormatNumber, with "nan", "inf" and "-inf" for the values that are not finite.
inline std::string FormatNumberOrInf(const char* format, double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return FormatNumber(format, value);
}

// `text` as a number when all of it is one and it fits a double as written: no overflow to
// infinity ("1e400"), no underflow of a non-zero number to zero or a denormal ("1e-400"), no
// "nan" or "inf". nullopt otherwise; callers say which flag and what to write.
inline std::optional<double> ParseFiniteNumber(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
  if (value != 0 && !std::isnormal(value)) return std::nullopt;
  return value;
}

// cpu2 < cpu10, onnx-node-tests-1.9.0 < onnx-node-tests-1.20.0: digit runs compare as numbers.
inline bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

// {"a", "b", ""} from "a,b," split on `separator`; "" gives {""}, so an empty item stays
// visible to the caller's check.
inline std::vector<std::string> SplitList(const std::string& text, char separator = ',') {
  std::vector<std::string> items;
  size_t pos = 0;
  for (;;) {
    const size_t next = text.find(separator, pos);
    items.push_back(text.substr(pos, next == std::string::npos ? std::string::npos : next - pos));
    if (next == std::string::npos) break;
    pos = next + 1;
  }
  return items;
}

}  // namespace edgebench
