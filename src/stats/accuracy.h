// Classification accuracy over a labelled data set (`edgebench accuracy`, docs/accuracy.md): the
// share of images whose label is the model's top class (top-1) or among its 5 best (top-5),
// with a Wilson score interval, and per class.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

// The two-sided 95% normal quantile, z = Phi^-1(0.975).
inline constexpr double kZ95 = 1.959963984540054;

// A proportion and its confidence interval, in [0, 1].
struct Proportion {
  int64_t successes = 0;
  int64_t trials = 0;
  double value = 0;  // successes / trials; 0 when there are no trials
  double low = 0;
  double high = 0;
};

// The Wilson score interval (Wilson 1927) of `successes` out of `trials` at normal quantile z:
//   (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n),  p = successes / n.
// Unlike p -+ z sqrt(p(1-p)/n) it stays inside [0, 1] and does not collapse to a point at 0 or
// n successes. No trials: [0, 1].
Proportion WilsonInterval(int64_t successes, int64_t trials, double z = kZ95);

// The model's top `k` classes for one image's scores, best first (ties: lower index first; a
// NaN is never among the best).
std::vector<int32_t> TopClasses(const float* scores, int64_t classes, int k);

// One class's images among those evaluated.
struct ClassAccuracy {
  int32_t label = 0;
  std::string name;     // from the model's labels; empty when it names none
  int64_t images = 0;   // images whose label is this class
  int64_t correct = 0;  // of those, predicted as this class (top-1)
  double top1 = 0;      // correct / images; 0 when there are none
};

// Per-class top-1 accuracy for labels 0..classes-1 (every class listed, also those with no
// image). `names` (may be empty or shorter) names the classes. Labels or predictions outside
// 0..classes-1 are not counted in any class.
std::vector<ClassAccuracy> PerClassAccuracy(const std::vector<int32_t>& labels,
                                            const std::vector<int32_t>& predicted, int32_t classes,
                                            const std::vector<std::string>& names = {});

}  // namespace edgebench
