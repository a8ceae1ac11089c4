// Load settings for tests that drive scenarios briefly: 2 warmup and 12 measured queries, no
// minimum duration, 200 ms windows, at most 5 s.
#pragma once

#include "load/settings.h"

namespace edgebench::testing {

inline RunSettings ShortLoadRun() {
  RunSettings s;
  s.warmup_queries = 2;
  s.min_queries = 12;
  s.min_duration_ms = 0;
  s.max_duration_ms = 5000;
  s.window_ms = 200;
  return s;
}

}  // namespace edgebench::testing
