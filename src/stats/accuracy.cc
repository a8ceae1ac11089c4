#include "stats/accuracy.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace edgebench {

Proportion WilsonInterval(int64_t successes, int64_t trials, double z) {
  Proportion p;
  p.successes = successes;
  p.trials = trials;
  if (trials <= 0) {
    p.high = 1;
    return p;
  }
  const double n = static_cast<double>(trials);
  const double share = static_cast<double>(successes) / n;
  const double z2 = z * z;
  const double centre = share + z2 / (2 * n);
  const double spread = z * std::sqrt(share * (1 - share) / n + z2 / (4 * n * n));
  const double denominator = 1 + z2 / n;
  p.value = share;
  p.low = std::clamp((centre - spread) / denominator, 0.0, 1.0);
  p.high = std::clamp((centre + spread) / denominator, 0.0, 1.0);
  // At 0 or n successes the bound on that side is the share itself; keep it exact.
  if (successes == 0) p.low = 0;
  if (successes == trials) p.high = 1;
  return p;
}

std::vector<ClassAccuracy> PerClassAccuracy(const std::vector<int32_t>& labels,
                                            const std::vector<int32_t>& predicted, int32_t classes,
                                            const std::vector<std::string>& names) {
  std::vector<ClassAccuracy> per_class(static_cast<size_t>(std::max(classes, 0)));
  for (int32_t c = 0; c < classes; ++c) {
    per_class[static_cast<size_t>(c)].label = c;
    if (static_cast<size_t>(c) < names.size()) per_class[static_cast<size_t>(c)].name = names[static_cast<size_t>(c)];
  }
  const size_t n = std::min(labels.size(), predicted.size());
  for (size_t i = 0; i < n; ++i) {
    if (labels[i] < 0 || labels[i] >= classes) continue;
    ClassAccuracy& c = per_class[static_cast<size_t>(labels[i])];
    ++c.images;
    if (predicted[i] == labels[i]) ++c.correct;
  }
  for (ClassAccuracy& c : per_class) {
    c.top1 = c.images ? static_cast<double>(c.correct) / static_cast<double>(c.images) : 0;
  }
  return per_class;
}

std::vector<int32_t> TopClasses(const float* scores, int64_t classes, int k) {
  std::vector<int32_t> order(static_cast<size_t>(classes));
  std::iota(order.begin(), order.end(), 0);
  const auto keep = static_cast<size_t>(std::clamp<int64_t>(k, 0, classes));
  // NaN sorts last, so a NaN is never a "best" class.
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                    [scores](int32_t a, int32_t b) {
                      const float sa = scores[a], sb = scores[b];
                      if (std::isnan(sa) != std::isnan(sb)) return std::isnan(sb);
                      if (sa != sb) return sa > sb;
                      return a < b;
                    });
  order.resize(keep);
  return order;
}

}  // namespace edgebench
