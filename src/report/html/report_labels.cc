#include "report/html/report_labels.h"

#include <algorithm>

#include "report/shape_matrix.h"

namespace edgebench {

std::string ModelOnTarget(const Record& r) {
  return r.model + (r.variant.empty() ? "" : "?" + r.variant) + " " + r.requested_target;
}

std::string ReportCaseLabel(const Record& r) {
  std::string label = ModelOnTarget(r) + " " + r.scenario;
  if (!r.dims.empty()) label += " " + ShapeLabel(r.dims, {});
  return label;
}

std::vector<size_t> ThinnedIndices(size_t n, size_t max_points) {
  std::vector<size_t> kept;
  if (n == 0) return kept;
  const size_t stride = max_points < 2 ? n : (n + max_points - 2) / (max_points - 1);
  for (size_t i = 0; i < n; i += std::max<size_t>(stride, 1)) kept.push_back(i);
  if (kept.back() != n - 1) {
    if (kept.size() >= max_points) kept.back() = n - 1;
    else kept.push_back(n - 1);
  }
  return kept;
}

}  // namespace edgebench
