#include "postprocess/detection.h"

#include <algorithm>

namespace edgebench {

double BoxIou(const Detection& a, const Detection& b) {
  const double area_a = (a.right - a.left) * (a.bottom - a.top);
  const double area_b = (b.right - b.left) * (b.bottom - b.top);
  if (!(area_a > 0) || !(area_b > 0)) return 0;
  const double w = std::min(a.right, b.right) - std::max(a.left, b.left);
  const double h = std::min(a.bottom, b.bottom) - std::max(a.top, b.top);
  if (w <= 0 || h <= 0) return 0;
  const double intersection = w * h;
  return intersection / (area_a + area_b - intersection);
}

}  // namespace edgebench
