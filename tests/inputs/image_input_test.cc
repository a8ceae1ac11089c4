#include "inputs/image_input.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace edgebench {
namespace {

// A 2x1 binary PPM: left pixel (0, 100, 200), right pixel (200, 100, 0).
std::string WriteTestImage() {
  const std::string path = "/tmp/edgebench_image_" + std::to_string(::getpid()) + ".ppm";
  std::ofstream out(path, std::ios::binary);
  out << "P6\n2 1\n255\n";
  const unsigned char pixels[] = {0, 100, 200, 200, 100, 0};
  out.write(reinterpret_cast<const char*>(pixels), sizeof pixels);
  return path;
}

TEST(ImageInput, ScalesNormalisesAndLaysOut) {
  const std::string path = WriteTestImage();
  auto pre = ParseImagePreprocess("scale=0.01,mean=1,std=2,layout=nchw");
  ASSERT_TRUE(pre.ok()) << pre.error();
  auto t = LoadImageTensor(path, pre.value());
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t.value().shape, (std::vector<int64_t>{1, 3, 1, 2}));
  const float* v = t.value().as<float>();
  // NCHW: channel 0 = (0, 200), channel 2 = (200, 0); value = (p*0.01 - 1)/2.
  EXPECT_FLOAT_EQ(v[0], -0.5f);
  EXPECT_FLOAT_EQ(v[1], 0.5f);
  EXPECT_FLOAT_EQ(v[4], 0.5f);
  EXPECT_FLOAT_EQ(v[5], -0.5f);
  std::remove(path.c_str());
}

TEST(ImageInput, ResizeAveragesBilinearly) {
  const std::string path = WriteTestImage();
  auto pre = ParseImagePreprocess("resize=1x1,scale=1");
  auto t = LoadImageTensor(path, pre.take());
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.value().shape, (std::vector<int64_t>{1, 1, 1, 3}));  // NHWC by default
  EXPECT_FLOAT_EQ(t.value().as<float>()[0], 100.0f);
  EXPECT_FLOAT_EQ(t.value().as<float>()[1], 100.0f);
  std::remove(path.c_str());
}

TEST(ImageInput, ClearErrors) {
  EXPECT_FALSE(ParseImagePreprocess("resize=12").ok());
  EXPECT_FALSE(ParseImagePreprocess("std=0").ok());
  EXPECT_FALSE(ParseImagePreprocess("gamma=2").ok());
  auto missing = LoadImageTensor("/nonexistent.png", ImagePreprocess{});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("cannot read image '/nonexistent.png': "), std::string::npos) << missing.error();
}

// Issue 50, class 5: values that read as numbers but measure nothing are refused as written.
TEST(ImagePreprocess, ASideThatWouldWrapOrANonFiniteValueIsRefused) {
  // sscanf's %d wrapped 4294967424 to 128: a 128x128 run recorded for a request of 4 billion.
  auto wrapped = ParseImagePreprocess("resize=4294967424x128");
  ASSERT_FALSE(wrapped.ok());
  EXPECT_NE(wrapped.error().find("a side is at most 16384 pixels"), std::string::npos) << wrapped.error();
  EXPECT_FALSE(ParseImagePreprocess("resize=99999999999999999999x2").ok());
  EXPECT_FALSE(ParseImagePreprocess("resize=12x").ok());
  EXPECT_FALSE(ParseImagePreprocess("resize=x12").ok());
  EXPECT_EQ(ParseImagePreprocess("resize=16384x2").value().width, 16384);
  for (const char* text : {"scale=nan", "scale=inf", "mean=0:nan:0", "std=-inf"}) {
    auto p = ParseImagePreprocess(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_NE(p.error().find("is not a finite number"), std::string::npos) << p.error();
  }
  auto per_channel_scale = ParseImagePreprocess("scale=1:2:3");
  ASSERT_FALSE(per_channel_scale.ok()) << "only the first factor was applied";
  EXPECT_NE(per_channel_scale.error().find("one factor for every channel"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
