#include "postprocess/non_max_suppression.h"

#include <algorithm>

namespace edgebench {

std::vector<Detection> NonMaxSuppression(std::vector<Detection> detections, const NmsOptions& options) {
  // Stable: equal scores keep the decoder's (anchor) order, so the result is deterministic.
  std::stable_sort(detections.begin(), detections.end(),
                   [](const Detection& a, const Detection& b) { return a.score > b.score; });
  std::vector<Detection> kept;
  std::vector<Detection> left = std::move(detections);
  while (!left.empty()) {
    if (options.max_detections >= 0 && static_cast<int>(kept.size()) >= options.max_detections) break;
    const Detection best = left.front();
    std::vector<const Detection*> group;
    std::vector<Detection> rest;
    for (const Detection& d : left) {
      if (BoxIou(best, d) > options.min_suppression_threshold || &d == &left.front()) {
        group.push_back(&d);
      } else {
        rest.push_back(d);
      }
    }
    Detection merged = best;
    if (options.weighted && group.size() > 1) {
      double total = 0, l = 0, t = 0, r = 0, b = 0;
      std::vector<double> keypoints(best.keypoints.size(), 0.0);
      for (const Detection* d : group) {
        total += d->score;
        l += d->left * d->score;
        t += d->top * d->score;
        r += d->right * d->score;
        b += d->bottom * d->score;
        for (size_t k = 0; k < keypoints.size() && k < d->keypoints.size(); ++k) {
          keypoints[k] += d->keypoints[k] * d->score;
        }
      }
      if (total > 0) {
        merged.left = l / total;
        merged.top = t / total;
        merged.right = r / total;
        merged.bottom = b / total;
        for (size_t k = 0; k < keypoints.size(); ++k) merged.keypoints[k] = keypoints[k] / total;
      }
    }
    kept.push_back(std::move(merged));
    left = std::move(rest);
  }
  return kept;
}

}  // namespace edgebench
