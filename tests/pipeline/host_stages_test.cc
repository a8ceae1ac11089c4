// The host stages of a pipeline (pipeline/host_stages.h), each on small inputs whose results
// are known exactly: pixels decoded from a PNG made here, resampling at the image's own size,
// an SSD box from a known offset, crops of known regions, top-k with ties.
#include "pipeline/host_stages.h"

#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <cmath>

namespace edgebench {
namespace {

// A width x height RGB frame whose pixel (x, y) channel c is (y * width + x) * 3 + c.
Frame CountingFrame(int width, int height) {
  Tensor t{"frame", DType::kUInt8, {1, height, width, 3}, {}};
  t.data.resize(static_cast<size_t>(width) * height * 3);
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = static_cast<std::byte>(i % 256);
  return std::make_shared<const Tensor>(std::move(t));
}

std::vector<float> Floats(const Tensor& t) {
  const float* v = t.as<float>();
  return std::vector<float>(v, v + t.element_count());
}

TEST(HostStages, DecodeImageGivesThePngsPixelsAsTheFrame) {
  const Frame frame = CountingFrame(3, 2);
  std::vector<uint8_t> png;
  ASSERT_TRUE(stbi_write_png_to_func(
      [](void* context, void* data, int size) {
        auto* out = static_cast<std::vector<uint8_t>*>(context);
        out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
      },
      &png, 3, 2, 3, frame->data.data(), 9));
  Tensor file{"file", DType::kUInt8, {static_cast<int64_t>(png.size())}, {}};
  file.data.resize(png.size());
  std::memcpy(file.data.data(), png.data(), png.size());
  auto stage = MakeDecodeImageStage("decode");
  std::vector<StageItem> out;
  ASSERT_TRUE(stage->Run({file}, nullptr, out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].tensors.empty());
  ASSERT_TRUE(out[0].frame);
  EXPECT_EQ(out[0].frame->shape, (std::vector<int64_t>{1, 2, 3, 3}));
  EXPECT_EQ(out[0].frame->data, frame->data);

  file.data.resize(10);  // a truncated file
  out.clear();
  const Status broken = stage->Run({file}, nullptr, out);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.message().find("cannot decode the query's image"), std::string::npos) << broken.message();
  EXPECT_TRUE(out.empty());
}

TEST(HostStages, PreprocessScalesNormalizesAndLaysOutTheFrame) {
  const Frame frame = CountingFrame(2, 2);  // 12 values 0..11
  auto stage = MakePreprocessStage("prep", ParseImagePreprocess("scale=1,mean=1:2:3,std=2,layout=nchw").take());
  std::vector<StageItem> out;
  ASSERT_TRUE(stage->Run({}, frame, out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].frame, frame);  // passed on
  const Tensor& t = out[0].tensors.at(0);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{1, 3, 2, 2}));
  // Channel c of pixel p is p * 3 + c: NCHW puts each channel's four pixels together.
  EXPECT_EQ(Floats(t), (std::vector<float>{-0.5f, 1, 2.5f, 4, -0.5f, 1, 2.5f, 4, -0.5f, 1, 2.5f, 4}));
  const Status no_frame = stage->Run({}, nullptr, out);
  ASSERT_FALSE(no_frame.ok());
  EXPECT_NE(no_frame.message().find("put a decode_image stage before 'prep'"), std::string::npos);
}

// One anchor of BlazeFace's 896 scores high with a box of a quarter of the input around its
// centre: the stage gives it in pixels of the frame, which the detector saw stretched to 128x128.
TEST(HostStages, SsdDetectionsGiveBoxesInPixelsOfTheFrame) {
  auto options = SsdDetectionsPreset("blazeface_short_range").take();
  Tensor regressors{"regressors", DType::kFloat32, {1, 896, 16}, {}};
  regressors.data.resize(896 * 16 * sizeof(float));
  Tensor scores{"classificators", DType::kFloat32, {1, 896, 1}, {}};
  scores.data.resize(896 * sizeof(float));
  for (int i = 0; i < 896; ++i) scores.as<float>()[i] = -100;
  // Anchor 0: the stride-8 map's first cell, centred at (0.5/16, 0.5/16) = (0.03125, 0.03125).
  scores.as<float>()[0] = 100;
  regressors.as<float>()[2] = 32;  // w: 32 / 128 = 0.25
  regressors.as<float>()[3] = 32;  // h
  auto stage = MakeSsdDetectionsStage("faces", options).take();
  std::vector<StageItem> out;
  ASSERT_TRUE(stage->Run({regressors, scores}, CountingFrame(256, 128), out).ok());
  const Tensor& boxes = out.at(0).tensors.at(0);
  ASSERT_EQ(boxes.name, kDetectionBoxes);
  ASSERT_EQ(boxes.shape, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(Floats(boxes), (std::vector<float>{-24, -12, 40, 20}));  // (0.03125 -+ 0.125) x (256, 128)
  EXPECT_FLOAT_EQ(out[0].tensors.at(1).as<float>()[0], 1.0f);
}

Tensor Boxes(const std::vector<float>& values) {
  Tensor t{kDetectionBoxes, DType::kFloat32, {static_cast<int64_t>(values.size() / 4), 4}, {}};
  t.data.resize(values.size() * sizeof(float));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

TEST(HostStages, CropCutsEachDetectionFromTheFrameOnePerItem) {
  const Frame frame = CountingFrame(4, 4);
  // Box 0 covers pixels (1..2, 1..2); box 1 reaches past the frame's top-left corner and is
  // clamped to pixel (0, 0); box 2 is past the limit of two.
  const Tensor boxes = Boxes({1, 1, 3, 3, -5, -5, 0.5f, 0.5f, 0, 0, 4, 4});
  auto stage = MakeCropStage("crop", ParseImagePreprocess("scale=1,layout=nhwc").take(), 2);
  std::vector<StageItem> out;
  ASSERT_TRUE(stage->Run({boxes}, frame, out).ok());
  ASSERT_EQ(out.size(), 2u);
  const auto pixel = [](int x, int y, int c) { return static_cast<float>((y * 4 + x) * 3 + c); };
  std::vector<float> first;
  for (int y = 1; y <= 2; ++y) {
    for (int x = 1; x <= 2; ++x) {
      for (int c = 0; c < 3; ++c) first.push_back(pixel(x, y, c));
    }
  }
  EXPECT_EQ(out[0].tensors.at(0).shape, (std::vector<int64_t>{1, 2, 2, 3}));
  EXPECT_EQ(Floats(out[0].tensors.at(0)), first);
  EXPECT_EQ(Floats(out[1].tensors.at(0)), (std::vector<float>{0, 1, 2}));
  EXPECT_EQ(out[1].frame, frame);

  // Resized: every crop has the model's size whatever the box's.
  auto resized = MakeCropStage("crop", ParseImagePreprocess("resize=3x3,scale=1").take(), -1);
  out.clear();
  ASSERT_TRUE(resized->Run({boxes}, frame, out).ok());
  ASSERT_EQ(out.size(), 3u);
  for (const StageItem& item : out) EXPECT_EQ(item.tensors.at(0).shape, (std::vector<int64_t>{1, 3, 3, 3}));
}

TEST(HostStages, ACropOfZeroSizeFailsNamingTheDetection) {
  auto stage = MakeCropStage("crop", ParseImagePreprocess("resize=2x2").take(), -1);
  std::vector<StageItem> out;
  const Status outside = stage->Run({Boxes({1, 1, 2, 2, 10, 10, 12, 12})}, CountingFrame(4, 4), out);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.message(), "detection 1's box (10.0, 10.0, 12.0, 12.0) is a crop of zero size in the 4x4 frame");
  const Status nan = stage->Run({Boxes({NAN, 0, 1, 1})}, CountingFrame(4, 4), out);
  EXPECT_FALSE(nan.ok());
  const Status no_boxes = stage->Run({}, CountingFrame(4, 4), out);
  ASSERT_FALSE(no_boxes.ok());
  EXPECT_NE(no_boxes.message().find("detection_boxes"), std::string::npos);
}

TEST(HostStages, BoxRegionRoundsOutwardAndClamps) {
  const PixelRegion r = BoxRegion(1.2, 0.9, 2.1, 3.0, 10, 10);
  EXPECT_EQ(std::vector<int>({r.x, r.y, r.w, r.h}), std::vector<int>({1, 0, 2, 3}));
  const PixelRegion clamped = BoxRegion(-3, -3, 100, 100, 10, 8);
  EXPECT_EQ(std::vector<int>({clamped.x, clamped.y, clamped.w, clamped.h}), std::vector<int>({0, 0, 10, 8}));
  EXPECT_EQ(BoxRegion(5, 5, 5, 9, 10, 10).w, 0);
  EXPECT_EQ(BoxRegion(NAN, 0, 1, 1, 10, 10).w, 0);
  EXPECT_EQ(BoxRegion(-1e300, 0, 1e300, 1, 10, 10).w, 10);
}

TEST(HostStages, TopKGivesTheLargestByValueThenIndex) {
  Tensor scores{"scores", DType::kFloat32, {1, 5}, {}};
  scores.data.resize(5 * sizeof(float));
  const float values[] = {0.1f, 0.5f, 0.2f, 0.5f, -1};
  std::memcpy(scores.data.data(), values, sizeof values);
  auto stage = MakeTopKStage("top", 3);
  std::vector<StageItem> out;
  ASSERT_TRUE(stage->Run({scores}, nullptr, out).ok());
  const Tensor& indices = out.at(0).tensors.at(0);
  ASSERT_EQ(indices.shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(std::vector<int64_t>(indices.as<int64_t>(), indices.as<int64_t>() + 3), (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(Floats(out[0].tensors.at(1)), (std::vector<float>{0.5f, 0.5f, 0.2f}));
  auto more = MakeTopKStage("top", 10);  // k past the count: every value
  out.clear();
  ASSERT_TRUE(more->Run({scores}, nullptr, out).ok());
  EXPECT_EQ(out[0].tensors.at(0).shape, (std::vector<int64_t>{5}));
}

}  // namespace
}  // namespace edgebench
