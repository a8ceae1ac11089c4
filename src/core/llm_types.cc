#include "core/llm_types.h"

#include "core/strings.h"

#include <sstream>

namespace edgebench {

std::optional<double> LlmRequestTiming::tpot_ns() const {
  if (token_ns.empty()) return std::nullopt;
  return static_cast<double>(e2e_ns() - ttft_ns()) / static_cast<double>(token_ns.size());
}

std::vector<int64_t> LlmRequestTiming::itl_gaps_ns() const {
  std::vector<int64_t> gaps;
  int64_t previous = first_token_ns;
  for (int64_t t : token_ns) {
    gaps.push_back(t - previous);
    previous = t;
  }
  return gaps;
}

namespace {

// A positive integer that is the whole of `text`.
std::optional<int64_t> PositiveInteger(const std::string& text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value > 0 ? std::optional<int64_t>(value) : std::nullopt;
}

// "500ms", "2.5s", "800us", "1000ns" in ns; a bare number is an error (the unit decides).
std::optional<int64_t> DurationNs(const std::string& text) {
  static const std::pair<const char*, double> kUnits[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  for (const auto& [unit, scale] : kUnits) {
    const std::string u(unit);
    if (text.size() <= u.size() || text.compare(text.size() - u.size(), u.size(), u) != 0) continue;
    const std::string number = text.substr(0, text.size() - u.size());
    if (number.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
    const std::optional<double> value = ParseFiniteNumber(number);
    // More than a day is no latency bound; past int64's nanoseconds it would not even convert.
    if (!value || !(*value > 0) || *value * scale > 86'400e9) return std::nullopt;
    const int64_t ns = static_cast<int64_t>(*value * scale + 0.5);
    if (ns <= 0) return std::nullopt;  // below a nanosecond: no bound a clock can check
    return ns;
  }
  return std::nullopt;
}

}  // namespace

Result<LlmTokenRange> ParseLlmTokenRange(const std::string& flag, const std::string& text) {
  const size_t colon = text.find(':');
  const auto bad = [&] {
    return Status::Error("bad " + flag + " '" + text + "': expected MIN:MAX, token counts with 1 <= MIN <= MAX, e.g. 64:256");
  };
  if (colon == std::string::npos) return bad();
  const auto min = PositiveInteger(text.substr(0, colon));
  const auto max = PositiveInteger(text.substr(colon + 1));
  if (!min || !max || *min > *max) return bad();
  return LlmTokenRange{*min, *max};
}

Result<LlmSlo> ParseLlmSlo(const std::string& flag, const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return Status::Error("bad " + flag + " '" + text + "': " + why +
                         "; expected e.g. ttft:500ms,tpot:50ms (units ns, us, ms, s)");
  };
  LlmSlo slo;
  if (!text.empty() && text.back() == ',') return bad("an empty item after the last comma");
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos) return bad("'" + item + "' is not KEY:DURATION");
    const std::string key = item.substr(0, colon);
    const auto value = DurationNs(item.substr(colon + 1));
    if (!value) return bad("'" + item.substr(colon + 1) + "' is not a positive duration with a unit");
    int64_t* slot = key == "ttft" ? &slo.ttft_ns : key == "tpot" ? &slo.tpot_ns : nullptr;
    if (!slot) return bad("unknown key '" + key + "' (ttft or tpot)");
    if (*slot != 0) return bad("'" + key + "' given twice");
    *slot = *value;
  }
  if (!slo.set()) return bad("no bound given");
  return slo;
}

}  // namespace edgebench
