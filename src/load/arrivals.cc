#include "load/arrivals.h"

#include <cmath>
#include <limits>
#include <string>

namespace edgebench {

namespace {

bool ValidRate(double rate_qps) { return std::isfinite(rate_qps) && rate_qps > 0; }

}  // namespace

PoissonArrivals::PoissonArrivals(double rate_qps, uint64_t seed)
    : rate_qps_(rate_qps), mean_gap_ns_(ValidRate(rate_qps) ? 1e9 / rate_qps : 0), engine_(seed) {}

Result<PoissonArrivals> PoissonArrivals::Make(double rate_qps, uint64_t seed) {
  if (!ValidRate(rate_qps)) {
    return Status::Error(
        "Poisson arrivals need a positive, finite rate in queries per second; got " +
        std::to_string(rate_qps) + " (give the server scenario a rate, such as server:100)");
  }
  return PoissonArrivals(rate_qps, seed);
}

int64_t PoissonArrivals::Next() {
  if (!ValidRate(rate_qps_)) return std::numeric_limits<int64_t>::max();
  // The top 53 bits of one 64-bit draw, scaled to [0, 1): every double in that grid equally
  // likely; 1 - u lies in (0, 1], so the logarithm is finite.
  const double u = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  now_ns_ += -std::log1p(-u) * mean_gap_ns_;
  if (now_ns_ >= 0x1.0p63) return std::numeric_limits<int64_t>::max();
  return std::llround(now_ns_);
}

}  // namespace edgebench
