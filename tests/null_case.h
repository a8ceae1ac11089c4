// A measured case on the null backend (backends/null/null_backend.h) for tests that hand a
// CaseSpec to a worker or run it in process: two warm-up queries, at least 20 measured and
// `min_duration_ms`, at most two seconds more.
#pragma once

#include <string>

#include "plan/case_spec.h"

namespace edgebench::testing {

inline CaseSpec NullCase(const std::string& target, int64_t min_duration_ms = 0) {
  CaseSpec spec;
  spec.model = "null";
  spec.artifact = "none";
  spec.target = ParseTarget(target).take();
  spec.settings.warmup_queries = 2;
  spec.settings.min_queries = 20;
  spec.settings.min_duration_ms = min_duration_ms;
  spec.settings.max_duration_ms = min_duration_ms + 2000;
  return spec;
}

}  // namespace edgebench::testing
