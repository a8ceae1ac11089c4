#include "diagnose/detection_agreement.h"

#include <algorithm>
#include <cmath>

#include "core/strings.h"
#include "core/tensor_values.h"
#include "postprocess/detection.h"

namespace edgebench {
namespace {

const Tensor* Find(const std::vector<Tensor>& outputs, const char* name) {
  for (const Tensor& t : outputs) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

bool IsDetectionOutput(const std::string& name) {
  return name == kDetectionBoxes || name == kDetectionScores || name == kDetectionKeypoints;
}

struct DetectionSet {
  std::vector<Detection> detections;  // boxes in pixels, keypoints normalized
  bool has_keypoints = false;
};

Result<DetectionSet> ReadDetections(const std::vector<Tensor>& outputs, const std::string& side) {
  const Tensor* boxes = Find(outputs, kDetectionBoxes);
  const Tensor* scores = Find(outputs, kDetectionScores);
  if (!boxes || !scores) {
    return Status::Error("the " + side + " has no detection_boxes and detection_scores outputs");
  }
  const int64_t n = boxes->shape.empty() ? -1 : boxes->shape[0];
  if (boxes->shape.size() != 2 || boxes->shape[1] != 4 || scores->shape != std::vector<int64_t>{n}) {
    return Status::Error("the " + side + "'s detections must be detection_boxes [N,4] and detection_scores [N]; they are " +
                         ShapeToString(boxes->shape) + " and " + ShapeToString(scores->shape));
  }
  auto box_values = TensorValues(*boxes);
  if (!box_values.ok()) return box_values.status();
  auto score_values = TensorValues(*scores);
  if (!score_values.ok()) return score_values.status();
  DetectionSet set;
  std::vector<double> keypoint_values;
  int64_t keypoints_each = 0;
  if (const Tensor* keypoints = Find(outputs, kDetectionKeypoints)) {
    if (keypoints->shape.size() != 3 || keypoints->shape[0] != n || keypoints->shape[2] != 2) {
      return Status::Error("the " + side + "'s detection_keypoints must be [N,K,2] with N = " + std::to_string(n) +
                           "; it is " + ShapeToString(keypoints->shape));
    }
    auto values = TensorValues(*keypoints);
    if (!values.ok()) return values.status();
    keypoint_values = values.take();
    keypoints_each = keypoints->shape[1] * 2;
    set.has_keypoints = true;
  }
  for (int64_t i = 0; i < n; ++i) {
    Detection d;
    const double* b = box_values.value().data() + i * 4;
    d.left = b[0];
    d.top = b[1];
    d.right = b[2];
    d.bottom = b[3];
    d.score = score_values.value()[static_cast<size_t>(i)];
    d.keypoints.assign(keypoint_values.begin() + i * keypoints_each, keypoint_values.begin() + (i + 1) * keypoints_each);
    set.detections.push_back(std::move(d));
  }
  return set;
}

}  // namespace

bool HasDetections(const std::vector<Tensor>& outputs) {
  return Find(outputs, kDetectionBoxes) && Find(outputs, kDetectionScores);
}

void SplitDetectionOutputs(const std::vector<Tensor>& outputs, std::vector<Tensor>& detections,
                           std::vector<Tensor>& others) {
  for (const Tensor& t : outputs) (IsDetectionOutput(t.name) ? detections : others).push_back(t);
}

Result<DetectionAgreement> CompareDetections(const std::vector<Tensor>& reference, const std::vector<Tensor>& other,
                                             double min_iou) {
  auto ref = ReadDetections(reference, "reference");
  if (!ref.ok()) return ref.status();
  auto oth = ReadDetections(other, "compared target");
  if (!oth.ok()) return oth.status();
  const auto& a = ref.value().detections;
  const auto& b = oth.value().detections;
  DetectionAgreement r;
  r.reference_count = static_cast<int64_t>(a.size());
  r.other_count = static_cast<int64_t>(b.size());
  // Greedy by IoU: the best-overlapping pair first, so a near-duplicate cannot steal a match.
  struct Candidate {
    double iou;
    size_t i, j;
  };
  std::vector<Candidate> candidates;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = 0; j < b.size(); ++j) {
      const double iou = BoxIou(a[i], b[j]);
      if (iou >= min_iou) candidates.push_back({iou, i, j});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.iou > y.iou; });
  std::vector<bool> used_a(a.size()), used_b(b.size());
  double corner_sum = 0;
  const bool keypoints = ref.value().has_keypoints && oth.value().has_keypoints;
  if (keypoints) r.max_keypoint_error = 0.0;
  r.min_matched_iou = candidates.empty() ? 0 : 1;
  for (const Candidate& c : candidates) {
    if (used_a[c.i] || used_b[c.j]) continue;
    used_a[c.i] = used_b[c.j] = true;
    ++r.matched;
    const Detection& x = a[c.i];
    const Detection& y = b[c.j];
    r.min_matched_iou = std::min(r.min_matched_iou, c.iou);
    const double top_left = std::hypot(x.left - y.left, x.top - y.top);
    const double bottom_right = std::hypot(x.right - y.right, x.bottom - y.bottom);
    r.max_corner_error_px = std::max({r.max_corner_error_px, top_left, bottom_right});
    corner_sum += top_left + bottom_right;
    r.max_score_diff = std::max(r.max_score_diff, std::abs(x.score - y.score));
    if (keypoints) {
      for (size_t k = 0; k + 1 < x.keypoints.size() && k + 1 < y.keypoints.size(); k += 2) {
        const double e = std::hypot(x.keypoints[k] - y.keypoints[k], x.keypoints[k + 1] - y.keypoints[k + 1]);
        r.max_keypoint_error = std::max(*r.max_keypoint_error, e);
      }
    }
  }
  if (r.matched > 0) r.mean_corner_error_px = corner_sum / (2.0 * static_cast<double>(r.matched));
  r.unmatched_reference = r.reference_count - r.matched;
  r.unmatched_other = r.other_count - r.matched;
  return r;
}

void CheckDetectionTolerances(DetectionAgreement& a, const DetectionTolerances& t) {
  a.violations.clear();
  if (a.unmatched_reference > t.max_unmatched || a.unmatched_other > t.max_unmatched) {
    a.violations.push_back(std::to_string(a.unmatched_reference) + " reference and " +
                           std::to_string(a.unmatched_other) + " compared detections unmatched at IoU >= " +
                           FormatNumber("%.2f", t.min_iou) + " (at most " + std::to_string(t.max_unmatched) + " each)");
  }
  // Written as "not within" so that a NaN fails.
  if (!(a.max_corner_error_px <= t.max_corner_error_px)) {
    a.violations.push_back("corner error " + FormatNumber("%.3g", a.max_corner_error_px) + " px > " +
                           FormatNumber("%.3g", t.max_corner_error_px) + " px");
  }
  if (!(a.max_score_diff <= t.max_score_diff)) {
    a.violations.push_back("score difference " + FormatNumber("%.3g", a.max_score_diff) + " > " +
                           FormatNumber("%.3g", t.max_score_diff));
  }
  if (a.max_keypoint_error && !(*a.max_keypoint_error <= t.max_keypoint_error)) {
    a.violations.push_back("keypoint error " + FormatNumber("%.3g", *a.max_keypoint_error) + " > " +
                           FormatNumber("%.3g", t.max_keypoint_error));
  }
}

}  // namespace edgebench
