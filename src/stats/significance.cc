#include "stats/significance.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>

namespace edgebench {

MannWhitneyResult MannWhitneyU(const std::vector<double>& a, const std::vector<double>& b) {
  MannWhitneyResult result;
  result.approximation_ok = static_cast<int64_t>(a.size()) >= kMannWhitneyMinSamples &&
                            static_cast<int64_t>(b.size()) >= kMannWhitneyMinSamples;
  if (a.empty() || b.empty()) return result;
  // A NaN equals nothing, not even itself: it would never join a group of equal values.
  std::vector<double> sorted_a = a;
  std::vector<double> sorted_b = b;
  std::erase_if(sorted_a, [](double v) { return std::isnan(v); });
  std::erase_if(sorted_b, [](double v) { return std::isnan(v); });
  if (sorted_a.empty() || sorted_b.empty()) return result;
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_b.begin(), sorted_b.end());
  // Walk both sorted sides together, one group of equal values at a time: the group holds ranks
  // below+1 .. below+t, each given their mean, and adds t^3 - t to the tie correction.
  double rank_sum_a = 0;
  double tie_term = 0;
  size_t i = 0;
  size_t j = 0;
  double below = 0;
  while (i < sorted_a.size() || j < sorted_b.size()) {
    double value;
    if (j == sorted_b.size() || (i < sorted_a.size() && sorted_a[i] <= sorted_b[j])) {
      value = sorted_a[i];
    } else {
      value = sorted_b[j];
    }
    double in_a = 0;
    double in_b = 0;
    while (i < sorted_a.size() && sorted_a[i] == value) ++i, ++in_a;
    while (j < sorted_b.size() && sorted_b[j] == value) ++j, ++in_b;
    const double tied = in_a + in_b;
    rank_sum_a += in_a * (below + (tied + 1) / 2);
    tie_term += tied * tied * tied - tied;
    below += tied;
  }
  const auto n1 = static_cast<double>(sorted_a.size());
  const auto n2 = static_cast<double>(sorted_b.size());
  const double n = n1 + n2;
  result.u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(variance > 0)) return result;  // every value the same: nothing tells the sides apart
  const double sigma = std::sqrt(variance);
  const double distance = std::abs(result.u - mean);
  const double corrected = std::max(distance - 0.5, 0.0);
  result.z = (result.u >= mean ? 1 : -1) * corrected / sigma;
  result.p = std::min(1.0, std::erfc((distance - 0.5) / sigma / std::sqrt(2.0)));
  return result;
}

std::string Statistic::Name() const {
  if (kind == Kind::kMean) return "mean";
  std::ostringstream out;
  out << "p" << std::setprecision(6) << fraction * 100;
  return out.str();
}

namespace {

// Nearest rank over sorted values (1 <= rank <= n).
size_t NearestRank(size_t n, double fraction) {
  const auto rank = static_cast<size_t>(std::ceil(fraction * static_cast<double>(n)));
  return std::clamp<size_t>(rank, 1, n);
}

double Mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// Draws the statistic of one bootstrap resample of a sample, each call a new resample.
class ResampledStatistic {
 public:
  ResampledStatistic(const std::vector<double>& values, const Statistic& statistic)
      : statistic_(statistic), sorted_(values) {
    if (statistic_.kind == Statistic::Kind::kPercentile) {
      std::sort(sorted_.begin(), sorted_.end());
      const size_t n = sorted_.size();
      const size_t k = NearestRank(n, statistic_.fraction);
      order_low_ = std::gamma_distribution<double>(static_cast<double>(k), 1.0);
      order_high_ = std::gamma_distribution<double>(static_cast<double>(n - k + 1), 1.0);
    }
  }

  double Value() const {
    if (statistic_.kind == Statistic::Kind::kMean) return Mean(sorted_);
    return sorted_[NearestRank(sorted_.size(), statistic_.fraction) - 1];
  }

  double Draw(std::mt19937_64& rng) {
    const size_t n = sorted_.size();
    if (statistic_.kind == Statistic::Kind::kMean) {
      std::uniform_int_distribution<size_t> pick(0, n - 1);
      double sum = 0;
      for (size_t i = 0; i < n; ++i) sum += sorted_[pick(rng)];
      return sum / static_cast<double>(n);
    }
    // The k-th of n uniform order statistics is Beta(k, n - k + 1) = X / (X + Y) with X, Y
    // Gamma(k) and Gamma(n - k + 1); the resample's k-th smallest value is the sample's value at
    // that quantile of its empirical distribution.
    const double x = order_low_(rng);
    const double y = order_high_(rng);
    const double u = x / (x + y);
    const auto rank = static_cast<size_t>(std::ceil(u * static_cast<double>(n)));
    return sorted_[std::clamp<size_t>(rank, 1, n) - 1];
  }

 private:
  Statistic statistic_;
  std::vector<double> sorted_;  // sorted for percentiles; as given for the mean
  std::gamma_distribution<double> order_low_;
  std::gamma_distribution<double> order_high_;
};

// Linear interpolation between closest ranks over sorted values (numpy's default).
double Quantile(const std::vector<double>& sorted, double q) {
  const double h = (static_cast<double>(sorted.size()) - 1) * q;
  const auto below = static_cast<size_t>(std::floor(h));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

double ComputeStatistic(const std::vector<double>& values, const Statistic& statistic) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return ResampledStatistic(values, statistic).Value();
}

std::optional<RelativeChange> BootstrapRelativeChange(const std::vector<double>& base,
                                                      const std::vector<double>& candidate,
                                                      const Statistic& statistic,
                                                      const BootstrapOptions& options) {
  if (base.empty() || candidate.empty()) return std::nullopt;
  ResampledStatistic base_side(base, statistic);
  ResampledStatistic candidate_side(candidate, statistic);
  const double base_value = base_side.Value();
  if (base_value == 0) return std::nullopt;
  RelativeChange change;
  change.estimate = candidate_side.Value() / base_value - 1;
  std::mt19937_64 rng(options.seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<size_t>(std::max(options.resamples, 0)));
  for (int r = 0; r < options.resamples; ++r) {
    const double b = base_side.Draw(rng);
    const double c = candidate_side.Draw(rng);
    if (b != 0) ratios.push_back(c / b);
  }
  change.resamples = static_cast<int>(ratios.size());
  if (ratios.empty()) {
    change.low = change.high = change.estimate;
    return change;
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - options.confidence) / 2;
  change.low = Quantile(ratios, tail) - 1;
  change.high = Quantile(ratios, 1 - tail) - 1;
  return change;
}

std::string ChangeVerdictName(ChangeVerdict verdict) {
  switch (verdict) {
    case ChangeVerdict::kFaster: return "faster";
    case ChangeVerdict::kSlower: return "slower";
    case ChangeVerdict::kNoChange: return "no change";
  }
  return "no change";
}

ChangeVerdict JudgeChange(double p, const RelativeChange& change, double noise_threshold,
                          bool higher_is_slower, double alpha) {
  if (!(p < alpha)) return ChangeVerdict::kNoChange;
  const bool grew = change.low > noise_threshold;
  const bool shrank = change.high < -noise_threshold;
  if (!grew && !shrank) return ChangeVerdict::kNoChange;
  return grew == higher_is_slower ? ChangeVerdict::kSlower : ChangeVerdict::kFaster;
}

namespace {

// The regularized incomplete beta function I_x(a, b) by its continued fraction (modified
// Lentz), on the side of x where it converges quickly.
double IncompleteBetaFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double term = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + term * d;
    c = 1 + term / c;
    if (std::fabs(d) < kTiny) d = kTiny;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    term = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + term * d;
    c = 1 + term / c;
    if (std::fabs(d) < kTiny) d = kTiny;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < 1e-15) break;
  }
  return h;
}

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * IncompleteBetaFraction(a, b, x) / a;
  return 1 - front * IncompleteBetaFraction(b, a, 1 - x) / b;
}

}  // namespace

double StudentTTwoSidedP(double t, double df) {
  if (!std::isfinite(t)) return 0;
  return RegularizedIncompleteBeta(df / 2, 0.5, df / (df + t * t));
}

double StudentTQuantile(double two_sided_p, double df) {
  double low = 0, high = 1;
  while (StudentTTwoSidedP(high, df) > two_sided_p && high < 1e12) high *= 2;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (StudentTTwoSidedP(mid, df) > two_sided_p ? low : high) = mid;
  }
  return (low + high) / 2;
}

std::optional<RunLevelChange> RunLevelRelativeChange(const std::vector<double>& base_runs,
                                                     const std::vector<double>& candidate_runs,
                                                     double confidence) {
  const size_t m = base_runs.size(), k = candidate_runs.size();
  if (m < 1 || k < 1 || m + k < 3) return std::nullopt;
  std::vector<double> lb, lc;
  for (double v : base_runs) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    lb.push_back(std::log(v));
  }
  for (double v : candidate_runs) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    lc.push_back(std::log(v));
  }
  const double mb = Mean(lb), mc = Mean(lc);
  double squares = 0;
  for (double v : lb) squares += (v - mb) * (v - mb);
  for (double v : lc) squares += (v - mc) * (v - mc);
  RunLevelChange out;
  out.df = static_cast<double>(m + k - 2);
  const double sd = std::sqrt(squares / out.df);
  out.run_to_run_cv = sd;
  const double se = sd * std::sqrt(1.0 / static_cast<double>(m) + 1.0 / static_cast<double>(k));
  const double diff = mc - mb;
  out.change.estimate = std::exp(diff) - 1;
  if (se == 0) {
    // Every run of each side gave the same value: no spread to judge a difference against.
    out.p = diff == 0 ? 1 : 0;
    out.change.low = out.change.high = out.change.estimate;
    return out;
  }
  out.p = StudentTTwoSidedP(diff / se, out.df);
  const double t = StudentTQuantile(1 - confidence, out.df);
  out.change.low = std::exp(diff - t * se) - 1;
  out.change.high = std::exp(diff + t * se) - 1;
  return out;
}

}  // namespace edgebench
