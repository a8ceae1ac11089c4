// The SSD postprocess on hand-built raw tensors: anchors where MediaPipe puts them, a known
// offset decoding to a known box, weighted NMS merging overlapping boxes.
#include "postprocess/ssd_detections.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace edgebench {
namespace {

constexpr double kLogit90 = 2.1972245773362196;  // sigmoid(x) = 0.9

TEST(SsdAnchors, BlazeFaceShortRangeHas896InMediaPipesOrder) {
  auto anchors = GenerateSsdAnchors(SsdDetectionsPreset("blazeface_short_range").value().anchors);
  ASSERT_TRUE(anchors.ok()) << anchors.error();
  ASSERT_EQ(anchors.value().size(), 896u);
  // Stride 8: a 16x16 map, two anchors a cell; then stride 16 (three layers): 8x8, six a cell.
  const auto& a = anchors.value();
  EXPECT_DOUBLE_EQ(a[0].x_center, 0.5 / 16);
  EXPECT_DOUBLE_EQ(a[1].x_center, 0.5 / 16);  // the second anchor of the first cell
  EXPECT_DOUBLE_EQ(a[2].x_center, 1.5 / 16);
  EXPECT_DOUBLE_EQ(a[32].y_center, 1.5 / 16);  // the second row
  EXPECT_DOUBLE_EQ(a[511].x_center, 15.5 / 16);
  EXPECT_DOUBLE_EQ(a[512].x_center, 0.5 / 8);
  EXPECT_DOUBLE_EQ(a[517].x_center, 0.5 / 8);
  EXPECT_DOUBLE_EQ(a[518].x_center, 1.5 / 8);
  EXPECT_DOUBLE_EQ(a[895].y_center, 7.5 / 8);
  EXPECT_DOUBLE_EQ(a[700].width, 1.0);  // fixed anchor size
}

TEST(SsdAnchors, FullRangeAndErrors) {
  auto full = GenerateSsdAnchors(SsdDetectionsPreset("blazeface_full_range").value().anchors);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full.value().size(), 2304u);  // 48x48, one anchor a cell
  SsdAnchorOptions bad;
  bad.num_layers = 3;
  EXPECT_FALSE(GenerateSsdAnchors(bad).ok());
  SsdAnchorOptions sized;
  sized.fixed_anchor_size = false;
  sized.num_layers = 1;
  sized.strides = {64};
  sized.interpolated_scale_aspect_ratio = 0;
  auto anchors = GenerateSsdAnchors(sized);
  ASSERT_TRUE(anchors.ok());
  ASSERT_EQ(anchors.value().size(), 4u);  // 2x2 cells
  EXPECT_DOUBLE_EQ(anchors.value()[0].width, (0.1484375 + 0.75) / 2);  // one layer: the midpoint scale
}

// Raw tensors for the short-range model with every score far below the threshold.
struct Raw {
  std::vector<float> regressors = std::vector<float>(896 * 16, 0.0f);
  std::vector<float> scores = std::vector<float>(896, -10.0f);
  void Set(int anchor, float score, std::vector<float> coords) {
    scores[static_cast<size_t>(anchor)] = score;
    for (size_t k = 0; k < coords.size(); ++k) regressors[static_cast<size_t>(anchor) * 16 + k] = coords[k];
  }
  std::vector<Tensor> Tensors() const {
    Tensor r{"regressors", DType::kFloat32, {1, 896, 16}, {}};
    Tensor c{"classificators", DType::kFloat32, {1, 896, 1}, {}};
    r.data.resize(regressors.size() * 4);
    c.data.resize(scores.size() * 4);
    std::memcpy(r.data.data(), regressors.data(), r.data.size());
    std::memcpy(c.data.data(), scores.data(), c.data.size());
    return {r, c};
  }
};

const float* Floats(const std::vector<Tensor>& outputs, const char* name) {
  for (const Tensor& t : outputs) {
    if (t.name == name) return t.as<float>();
  }
  return nullptr;
}

TEST(SsdDetections, AKnownOffsetDecodesToAKnownBox) {
  // Anchor 34: row 1, cell 1 of the 16x16 map, centre (1.5/16, 1.5/16) = (12, 12) px. The offsets
  // are in input pixels (scale 128): centre +4, +8 px, size 32 x 16 px, keypoint 0 at +2, -2 px.
  Raw raw;
  raw.Set(34, static_cast<float>(kLogit90), {4, 8, 32, 16, 2, -2});
  auto outputs = SsdDetectionsFromOutputs(raw.Tensors(), SsdDetectionsPreset("blazeface_short_range").value());
  ASSERT_TRUE(outputs.ok()) << outputs.error();
  ASSERT_EQ(outputs.value().size(), 3u);
  EXPECT_EQ(outputs.value()[0].shape, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(outputs.value()[2].shape, (std::vector<int64_t>{1, 6, 2}));
  const float* box = Floats(outputs.value(), kDetectionBoxes);
  EXPECT_NEAR(box[0], 16 - 16, 1e-4);  // centre x 16, half width 16
  EXPECT_NEAR(box[1], 20 - 8, 1e-4);   // centre y 20, half height 8
  EXPECT_NEAR(box[2], 16 + 16, 1e-4);
  EXPECT_NEAR(box[3], 20 + 8, 1e-4);
  EXPECT_NEAR(Floats(outputs.value(), kDetectionScores)[0], 0.9, 1e-6);
  const float* keypoints = Floats(outputs.value(), kDetectionKeypoints);
  EXPECT_NEAR(keypoints[0], 14.0 / 128, 1e-6);
  EXPECT_NEAR(keypoints[1], 10.0 / 128, 1e-6);
}

TEST(SsdDetections, ScoresBelowTheThresholdAreDropped) {
  Raw raw;
  raw.Set(100, -0.1f, {0, 0, 10, 10});  // sigmoid 0.475 < 0.5
  auto outputs = SsdDetectionsFromOutputs(raw.Tensors(), SsdDetectionsPreset("blazeface_short_range").value());
  ASSERT_TRUE(outputs.ok());
  EXPECT_EQ(outputs.value()[0].shape, (std::vector<int64_t>{0, 4}));
}

TEST(SsdDetections, OverlappingBoxesMergeByWeightedNms) {
  // Anchors 34 and 35 share a cell: two boxes 32 px wide, the second 4 px to the right (IoU 0.78)
  // with score 0.6 against 0.9. WEIGHTED keeps one box at the score-weighted mean, score 0.9.
  Raw raw;
  raw.Set(34, static_cast<float>(kLogit90), {0, 0, 32, 32});
  raw.Set(35, static_cast<float>(std::log(0.6 / 0.4)), {4, 0, 32, 32});
  // A box far away stays on its own.
  raw.Set(500, 0.0f, {0, 0, 8, 8});  // sigmoid 0.5: at the threshold, kept
  auto options = SsdDetectionsPreset("blazeface_short_range").value();
  auto outputs = SsdDetectionsFromOutputs(raw.Tensors(), options);
  ASSERT_TRUE(outputs.ok()) << outputs.error();
  ASSERT_EQ(outputs.value()[1].shape, (std::vector<int64_t>{2}));
  const float* box = Floats(outputs.value(), kDetectionBoxes);
  const double shift = 4 * 0.6 / 1.5;  // the weighted mean of 0 and +4 px
  EXPECT_NEAR(box[0], 12 - 16 + shift, 1e-4);
  EXPECT_NEAR(box[2], 12 + 16 + shift, 1e-4);
  EXPECT_NEAR(box[1], 12 - 16, 1e-4);
  EXPECT_NEAR(Floats(outputs.value(), kDetectionScores)[0], 0.9, 1e-6);
  EXPECT_NEAR(Floats(outputs.value(), kDetectionScores)[1], 0.5, 1e-6);

  options.nms.weighted = false;  // DEFAULT: the best box as it is
  auto plain = SsdDetectionsFromOutputs(raw.Tensors(), options);
  ASSERT_TRUE(plain.ok());
  EXPECT_NEAR(Floats(plain.value(), kDetectionBoxes)[0], 12 - 16, 1e-4);
}

TEST(SsdDetections, MissingOrMisshapenOutputsAreErrors) {
  const auto options = SsdDetectionsPreset("blazeface_short_range").value();
  Raw raw;
  auto tensors = raw.Tensors();
  tensors[0].name = "Identity_2:0";
  auto missing = SsdDetectionsFromOutputs(tensors, options);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("needs outputs 'regressors' and 'classificators'"), std::string::npos);
  EXPECT_NE(missing.error().find("'Identity_2:0' [1x896x16]"), std::string::npos) << missing.error();
  auto full = SsdDetectionsFromOutputs(raw.Tensors(), SsdDetectionsPreset("blazeface_full_range").value());
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.error().find("for its 2304 anchors"), std::string::npos) << full.error();
}

TEST(SsdDetections, ParsesPresetsAndOverrides) {
  auto o = ParseSsdDetectionsOptions(
      {{"kind", "ssd_detections"}, {"preset", "blazeface_full_range"}, {"min_score_thresh", 0.7},
       {"algorithm", "DEFAULT"}, {"regressors", "boxes"}});
  ASSERT_TRUE(o.ok()) << o.error();
  EXPECT_EQ(o.value().anchors.input_width, 192);
  EXPECT_DOUBLE_EQ(o.value().decode.min_score_thresh, 0.7);
  EXPECT_FALSE(o.value().nms.weighted);
  EXPECT_EQ(o.value().regressors, "boxes");
  auto unknown = ParseSsdDetectionsOptions({{"kind", "ssd_detections"}, {"min_scor_thresh", 0.7}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("unknown postprocess option 'min_scor_thresh'"), std::string::npos);
  EXPECT_FALSE(ParseSsdDetectionsOptions({{"kind", "yolo"}}).ok());
  EXPECT_FALSE(ParseSsdDetectionsOptions({{"kind", "ssd_detections"}, {"preset", "blazeface"}}).ok());
  EXPECT_FALSE(ParseSsdDetectionsOptions({{"kind", "ssd_detections"}, {"num_keypoints", 7}}).ok());
  EXPECT_FALSE(ParseSsdDetectionsOptions({{"kind", "ssd_detections"}, {"strides", "8"}}).ok());
}

// Issue 50: options that keep no detection (the stages after the detector never run while the
// record says ok) or stand for billions of anchors are refused when the file is read.
TEST(SsdDetectionsOptions, NoDetectionsAndAbsurdAnchorCountsAreRefused) {
  auto none = ParseSsdDetectionsOptions({{"kind", "ssd_detections"}, {"max_num_detections", 0}});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("max_num_detections must be at least 1"), std::string::npos) << none.error();
  auto zero_scale = ParseSsdDetectionsOptions({{"kind", "ssd_detections"}, {"w_scale", 0}});
  ASSERT_FALSE(zero_scale.ok());
  EXPECT_NE(zero_scale.error().find("w_scale must be a finite number other than 0"), std::string::npos);
  auto huge = ParseSsdDetectionsOptions({{"kind", "ssd_detections"},
                                         {"input_size_width", 16384},
                                         {"input_size_height", 16384},
                                         {"num_layers", 1},
                                         {"strides", {1}}});
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().find("more than 1000000 anchors"), std::string::npos) << huge.error();
  auto side = ParseSsdDetectionsOptions({{"kind", "ssd_detections"}, {"input_size_width", 20000}});
  ASSERT_FALSE(side.ok());
  EXPECT_NE(side.error().find("a side is at most 16384"), std::string::npos) << side.error();
  EXPECT_TRUE(ParseSsdDetectionsOptions({{"kind", "ssd_detections"}}).ok()) << "BlazeFace's preset still reads";
}

}  // namespace
}  // namespace edgebench
