// One step of a server peak search (load/peak_search.h): a rate tried and whether its p99 stayed
// under the bound. Plain data, kept in the record.
#pragma once

namespace edgebench {

struct PeakStep {
  double qps = 0;
  bool passed = false;
};

}  // namespace edgebench
