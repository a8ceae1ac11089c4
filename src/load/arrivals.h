// Seeded Poisson arrivals for the server scenario, the same on every platform for a seed.
//
// std::exponential_distribution is not used: its algorithm is the standard library's own
// (libstdc++ and libc++ draw differently), so a seed would give different schedules on
// different machines. Instead each gap is -log1p(-u) / rate with u a 53-bit uniform in [0, 1)
// from std::mt19937_64, whose output sequence the C++ standard fixes. The one platform
// dependence left is the last bit of log1p; rounded to whole nanoseconds it does not show.
#pragma once

#include <cstdint>
#include <random>

#include "core/status.h"

namespace edgebench {

class PoissonArrivals {
 public:
  // Precondition: rate_qps is finite and > 0 (Make checks it). With any other rate, Next()
  // returns INT64_MAX: no arrival ever comes, rather than a division by zero.
  PoissonArrivals(double rate_qps, uint64_t seed);

  // The checked constructor: an error for a rate that is not a positive finite number.
  static Result<PoissonArrivals> Make(double rate_qps, uint64_t seed);

  // The next arrival time in ns after the start: non-decreasing (two arrivals may round to the
  // same ns at very high rates). The times accumulate in double ns (exact to well under 1 ns
  // for runs of days) and are rounded to the nearest ns.
  int64_t Next();

  double rate_qps() const { return rate_qps_; }

 private:
  double rate_qps_;
  double mean_gap_ns_;
  double now_ns_ = 0;
  std::mt19937_64 engine_;
};

}  // namespace edgebench
