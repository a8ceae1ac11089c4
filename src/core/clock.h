// The harness's only clock: steady, in nanoseconds. Backends never time themselves.
#pragma once

#include <chrono>
#include <cstdint>

namespace edgebench {

using SteadyClock = std::chrono::steady_clock;

inline int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             SteadyClock::now().time_since_epoch())
      .count();
}

inline int64_t ElapsedNs(SteadyClock::time_point start, SteadyClock::time_point end) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
}

}  // namespace edgebench
