#include "load/peak_search.h"

#include <cmath>
#include <cstdio>

namespace edgebench {

namespace {

std::string Qps(double qps) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.10g QPS", qps);
  return buffer;
}

bool PositiveFinite(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

PeakSearch::PeakSearch(double start_qps, double precision)
    : start_qps_(start_qps), precision_(precision) {
  if (!PositiveFinite(start_qps) || !PositiveFinite(precision)) Finish(Stop::kInvalid);
}

void PeakSearch::Finish(Stop why) {
  done_ = true;
  stop_ = why;
}

std::optional<double> PeakSearch::NextRate() const {
  if (done_) return std::nullopt;
  if (steps_.empty()) return start_qps_;
  if (!highest_pass_) return *lowest_fail_ / 2;
  if (!lowest_fail_) return *highest_pass_ * 2;
  return (*highest_pass_ + *lowest_fail_) / 2;
}

void PeakSearch::Report(double qps, bool passed) {
  if (done_) return;
  // What kind of step this was, judged before the bounds move.
  const bool halving = !steps_.empty() && !highest_pass_;
  const bool doubling = !steps_.empty() && !lowest_fail_;
  const bool bisecting = highest_pass_ && lowest_fail_;
  steps_.push_back({qps, passed});
  if (halving) ++halvings_;
  if (doubling && !halving) ++doublings_;
  if (bisecting) ++bisections_;

  if (passed) {
    if (!highest_pass_ || qps > *highest_pass_) highest_pass_ = qps;
    if (lowest_fail_ && *lowest_fail_ <= *highest_pass_) lowest_fail_.reset();
  } else if (!highest_pass_ || qps > *highest_pass_) {
    if (!lowest_fail_ || qps < *lowest_fail_) lowest_fail_ = qps;
  }

  if (highest_pass_ && lowest_fail_) {
    if (*lowest_fail_ - *highest_pass_ <= precision_ * *highest_pass_) {
      Finish(Stop::kPrecisionReached);
    } else if (bisections_ >= kMaxBisections) {
      Finish(Stop::kBisectionLimit);
    }
  } else if (!highest_pass_ && halvings_ >= kMaxHalvings) {
    Finish(Stop::kNoPass);
  } else if (!lowest_fail_ && doublings_ >= kMaxDoublings) {
    Finish(Stop::kNoFail);
  }
}

std::string PeakSearch::Explain() const {
  const std::string after = " after " + std::to_string(steps_.size()) + " steps";
  switch (stop_) {
    case Stop::kInvalid: {
      char buffer[160];
      std::snprintf(buffer, sizeof buffer,
                    "the peak search needs a positive start rate and precision; got %g QPS and %g",
                    start_qps_, precision_);
      return buffer;
    }
    case Stop::kPrecisionReached: {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.3g%% apart, within the %.3g%% precision",
                    (*lowest_fail_ - *highest_pass_) / *highest_pass_ * 100, precision_ * 100);
      return "peak " + Qps(*highest_pass_) + ": it passed and " + Qps(*lowest_fail_) +
             " failed, " + buffer + after;
    }
    case Stop::kNoPass:
      return "no rate passed: " + Qps(start_qps_) + " failed and so did " +
             std::to_string(halvings_) + " halvings down to " + Qps(steps_.back().qps) +
             "; look for what fails even at a low rate";
    case Stop::kNoFail:
      return "every rate passed, up to " + Qps(*highest_pass_) + " (" +
             std::to_string(doublings_) + " doublings): the peak is at least that; start higher";
    case Stop::kBisectionLimit:
      return "stopped after " + std::to_string(bisections_) + " bisections: " +
             Qps(*highest_pass_) + " passed and " + Qps(*lowest_fail_) +
             " failed, not yet within the precision";
    case Stop::kNotYet:
      break;
  }
  std::string line = "searching: next " + Qps(*NextRate());
  if (highest_pass_) line += ", highest pass " + Qps(*highest_pass_);
  if (lowest_fail_) line += ", lowest failure " + Qps(*lowest_fail_);
  return line;
}

}  // namespace edgebench
