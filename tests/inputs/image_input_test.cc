#include "inputs/image_input.h"

#include <filesystem>
#include <unistd.h>
#include <sys/stat.h>
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

// Issue 50, classes 4 and 6: a FIFO as an image blocked the reader; a PNG too large to decode
// was "unknown image type". Both say what the file is.
TEST(ImageInput, AFifoIsRefusedAndAnOversizedPngSaysItsSize) {
  const std::string dir = ::testing::TempDir() + "image_input_fifo_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/camera.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto blocked = LoadImageTensor(fifo, ImagePreprocess{});
  ASSERT_FALSE(blocked.ok());
  EXPECT_NE(blocked.error().find("it is a FIFO, not a regular file"), std::string::npos) << blocked.error();
  // A PNG signature and an IHDR of 60000x60000, 8-bit RGB: stb refuses it while reading the header.
  const unsigned char header[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                  0, 0, 0xea, 0x60, 0, 0, 0xea, 0x60, 8, 2, 0, 0, 0, 0, 0, 0, 0};
  const std::string png = dir + "/huge.png";
  std::ofstream(png, std::ios::binary).write(reinterpret_cast<const char*>(header), sizeof header);
  auto huge = LoadImageTensor(png, ImagePreprocess{});
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().find("is a PNG of 60000x60000 pixels; images are limited to 16384 pixels a side"),
            std::string::npos)
      << huge.error();
  auto decoded = DecodeImageBytes(header, sizeof header, "the input");
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().find("60000x60000"), std::string::npos) << decoded.error();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
