#include "diagnose/detection_agreement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "postprocess/detection.h"

namespace edgebench {
namespace {

// Detection outputs from boxes (left, top, right, bottom px) and scores; keypoints all at (k, k).
std::vector<Tensor> Detections(const std::vector<std::vector<float>>& boxes, const std::vector<float>& scores,
                               float keypoint = 0.25f) {
  const int64_t n = static_cast<int64_t>(scores.size());
  Tensor b{kDetectionBoxes, DType::kFloat32, {n, 4}, {}};
  Tensor s{kDetectionScores, DType::kFloat32, {n}, {}};
  Tensor k{kDetectionKeypoints, DType::kFloat32, {n, 1, 2}, {}};
  b.data.resize(static_cast<size_t>(n) * 16);
  s.data.resize(static_cast<size_t>(n) * 4);
  k.data.resize(static_cast<size_t>(n) * 8);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(b.as<float>() + i * 4, boxes[static_cast<size_t>(i)].data(), 16);
    s.as<float>()[i] = scores[static_cast<size_t>(i)];
    k.as<float>()[i * 2] = k.as<float>()[i * 2 + 1] = keypoint;
  }
  return {b, s, k};
}

TEST(DetectionAgreement, MatchesByIouAndMeasuresThePairs) {
  // Reference: two faces. Other: the same two, listed the other way round, one shifted by (3, 4)
  // px (corner error 5), plus a spurious third.
  auto reference = Detections({{10, 10, 50, 50}, {60, 60, 100, 100}}, {0.9f, 0.8f});
  auto other = Detections({{63, 64, 103, 104}, {10, 10, 50, 50}, {0, 100, 10, 110}}, {0.79f, 0.9f, 0.6f}, 0.26f);
  auto a = CompareDetections(reference, other);
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a.value().reference_count, 2);
  EXPECT_EQ(a.value().other_count, 3);
  EXPECT_EQ(a.value().matched, 2);
  EXPECT_EQ(a.value().unmatched_reference, 0);
  EXPECT_EQ(a.value().unmatched_other, 1);
  EXPECT_NEAR(a.value().max_corner_error_px, 5.0, 1e-9);
  EXPECT_NEAR(a.value().mean_corner_error_px, (0 + 0 + 5 + 5) / 4.0, 1e-9);
  EXPECT_NEAR(a.value().max_score_diff, 0.01, 1e-6);
  ASSERT_TRUE(a.value().max_keypoint_error.has_value());
  EXPECT_NEAR(*a.value().max_keypoint_error, std::hypot(0.01, 0.01), 1e-6);
  DetectionAgreement checked = a.value();
  CheckDetectionTolerances(checked, DetectionTolerances{});
  ASSERT_EQ(checked.violations.size(), 3u);  // the unmatched one, 5 px corners, the keypoints
  EXPECT_NE(checked.violations[0].find("0 reference and 1 compared detections unmatched"), std::string::npos);
  EXPECT_NE(checked.violations[1].find("corner error 5 px > 2 px"), std::string::npos) << checked.violations[1];
  DetectionTolerances loose;
  loose.max_unmatched = 1;
  loose.max_corner_error_px = 6;
  loose.max_keypoint_error = 0.02;
  CheckDetectionTolerances(checked, loose);
  EXPECT_TRUE(checked.violations.empty());
}

TEST(DetectionAgreement, BoxesBelowTheIouDoNotMatch) {
  auto a = CompareDetections(Detections({{0, 0, 10, 10}}, {0.9f}), Detections({{5, 0, 15, 10}}, {0.9f}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.value().matched, 0);  // IoU 1/3
  EXPECT_EQ(a.value().unmatched_reference, 1);
  EXPECT_EQ(a.value().unmatched_other, 1);
  auto none = CompareDetections(Detections({}, {}), Detections({}, {}));
  ASSERT_TRUE(none.ok());
  DetectionAgreement empty = none.value();
  CheckDetectionTolerances(empty, DetectionTolerances{});
  EXPECT_TRUE(empty.violations.empty());  // both found nothing: they agree
}

TEST(DetectionAgreement, SplitsAndRejectsMalformedOutputs) {
  auto outputs = Detections({{0, 0, 1, 1}}, {0.5f});
  outputs.push_back(Tensor{"regressors", DType::kFloat32, {1}, std::vector<std::byte>(4)});
  EXPECT_TRUE(HasDetections(outputs));
  std::vector<Tensor> detections, others;
  SplitDetectionOutputs(outputs, detections, others);
  EXPECT_EQ(detections.size(), 3u);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0].name, "regressors");
  EXPECT_FALSE(HasDetections(others));
  auto bad = Detections({{0, 0, 1, 1}}, {0.5f});
  bad[0].shape = {4};
  auto error = CompareDetections(bad, Detections({}, {}));
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.error().find("detection_boxes [N,4]"), std::string::npos) << error.error();
}

}  // namespace
}  // namespace edgebench
