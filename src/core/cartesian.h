// The one cartesian expansion of the tree: a suite target's option lists, a shape sweep's --dim
// values, a tuning space and an llm run's prompt x generation lengths all hand their list sizes
// here. The count is known before anything is made, so each caller refuses a product past its
// limit (plan/plan.h's kMaxPlannedCases, tune's 4,096 configurations) before allocating it.
#pragma once

#include <cstddef>
#include <vector>

namespace edgebench {

// How many combinations `sizes` make: a double, since a product of many lists may pass any
// integer type (and a limit check must still see it).
inline double CartesianCount(const std::vector<size_t>& sizes) {
  double count = 1;
  for (size_t n : sizes) count *= static_cast<double>(n);
  return count;
}

// Calls visit(indices) for every combination of one index per list, the first list varying
// slowest (an odometer whose last digit turns fastest): sizes {2, 3} visit (0,0) (0,1) (0,2)
// (1,0) (1,1) (1,2). No list: one empty combination. An empty list: none.
template <typename Visit>
void ForEachCombination(const std::vector<size_t>& sizes, Visit&& visit) {
  for (size_t n : sizes) {
    if (n == 0) return;
  }
  std::vector<size_t> index(sizes.size(), 0);
  while (true) {
    visit(static_cast<const std::vector<size_t>&>(index));
    size_t i = sizes.size();
    while (i > 0 && ++index[i - 1] == sizes[i - 1]) index[--i] = 0;
    if (i == 0) return;
  }
}

}  // namespace edgebench
