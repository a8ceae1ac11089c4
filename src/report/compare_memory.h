// `compare` on memory (docs/compare.md): the worker's peak RSS, one reading per run, judged like
// a latency (a growth beyond the noise is "slower": a regression, which a --fail-on gate catches),
// and a leak NEW has that BASE had not.
#pragma once

#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

// Peak RSS beyond both 5% and 4 MiB of BASE's is a change; less is none.
inline constexpr double kPeakRssNoise = 0.05;
inline constexpr double kPeakRssNoiseMib = 4;

// One memory metric of a pair, judged (compare.cc makes it a MetricComparison).
struct MemoryChange {
  std::string name;  // "peak RSS", "memory growth"
  std::string unit;  // "MiB", "leak"
  double base = 0, candidate = 0;
  double change = 0;  // relative for peak RSS; 1 or -1 for growth
  int direction = 0;  // +1: more memory (a regression), -1: less, 0: no change
  std::string note;
};

// "peak RSS" (MiB) when both records have one, and "memory growth" when NEW leaks (the RSS growth
// verdict or a leaking site of --leak-sites) and BASE does not, or the other way.
std::vector<MemoryChange> CompareMemory(const Record& base, const Record& candidate);

}  // namespace edgebench
