// The server scenario's peak search as a pure state machine: which rate to try next, given the
// outcomes so far. The caller runs each rate as its own case and reports whether it passed
// (p99 within the bound and the achieved rate close enough to the target).
//
// The rule (issue 9; MLPerf LoadGen's FindPeakPerformance and vLLM's serve_sla sweep do the
// same): start at a rate that passes and double it until one fails; then bisect between the
// highest passing and the lowest failing rate until they are within `precision` of the passing
// one: (fail - pass) <= precision x pass. If the start rate fails, halve it until a rate
// passes, then bisect as before. The search gives up after kMaxHalvings halvings without a
// pass (no peak), after kMaxDoublings doublings without a failure (the peak is then at least
// the last rate), or after kMaxBisections bisections (a guard; precision 2% needs about 6).
//
//   PeakSearch search(100);
//   while (auto qps = search.NextRate()) search.Report(*qps, RunServerCase(*qps).passed);
//   search.Peak();     // 987.5 for a system that passes below 1,000 QPS
//   search.Explain();  // why it stopped
#pragma once

#include "core/peak_step.h"

#include <optional>
#include <string>
#include <vector>

namespace edgebench {

class PeakSearch {
 public:
  static constexpr int kMaxHalvings = 20;
  static constexpr int kMaxDoublings = 20;
  static constexpr int kMaxBisections = 60;

  // start_qps and precision must be positive and finite; otherwise the search is over before
  // it starts (NextRate() is nullopt) and Explain() says which was wrong.
  explicit PeakSearch(double start_qps, double precision = 0.02);

  // The rate to try next; nullopt when the search is done.
  std::optional<double> NextRate() const;

  // The outcome of the rate NextRate() gave. Another rate is accepted too and counts by the
  // same rule: a pass raises the highest passing rate, a failure above it lowers the lowest
  // failing one (a failure at or below a passing rate, a noisy system, changes neither).
  void Report(double qps, bool passed);

  // The highest passing rate found; nullopt if none passed.
  std::optional<double> Peak() const { return highest_pass_; }

  bool done() const { return done_; }
  const std::vector<PeakStep>& steps() const { return steps_; }

  // One line: why the search stopped, with the numbers (or where it stands while running).
  std::string Explain() const;

 private:
  enum class Stop { kNotYet, kInvalid, kPrecisionReached, kNoPass, kNoFail, kBisectionLimit };

  void Finish(Stop why);

  double start_qps_;
  double precision_;
  std::vector<PeakStep> steps_;
  std::optional<double> highest_pass_;
  std::optional<double> lowest_fail_;  // above highest_pass_
  int halvings_ = 0;    // rates tried below the start before any passed
  int doublings_ = 0;   // rates tried above the start before any failed
  int bisections_ = 0;
  bool done_ = false;
  Stop stop_ = Stop::kNotYet;
};

}  // namespace edgebench
