#include "inputs/labelled_images.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::TempFilePath;

std::string BigEndian(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

// An IDX images file of `count` images of rows x cols, pixel i of image n = n * 10 + i.
std::string ImagesIdx(uint32_t count, uint32_t rows, uint32_t cols, uint32_t declared_count = 0) {
  std::string bytes = std::string("\0\0\x08\x03", 4) + BigEndian(declared_count ? declared_count : count) +
                      BigEndian(rows) + BigEndian(cols);
  for (uint32_t n = 0; n < count; ++n) {
    for (uint32_t i = 0; i < rows * cols; ++i) bytes.push_back(static_cast<char>(n * 10 + i));
  }
  return bytes;
}

std::string LabelsIdx(const std::vector<uint8_t>& labels) {
  std::string bytes = std::string("\0\0\x08\x01", 4) + BigEndian(static_cast<uint32_t>(labels.size()));
  for (uint8_t l : labels) bytes.push_back(static_cast<char>(l));
  return bytes;
}

std::string Write(const std::string& name, const std::string& bytes, bool gzip) {
  const std::string path = TempFilePath("idx_", name);
  if (gzip) {
    gzFile f = ::gzopen(path.c_str(), "wb");
    ::gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    ::gzclose(f);
  } else {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  return path;
}

void ExpectError(const Result<LabelledImages>& r, const std::vector<std::string>& parts) {
  ASSERT_FALSE(r.ok());
  for (const std::string& part : parts) EXPECT_NE(r.error().find(part), std::string::npos) << r.error();
}

class LabelledImagesTest : public ::testing::TestWithParam<bool> {};

TEST_P(LabelledImagesTest, ReadsTheRangeAskedFor) {
  const bool gz = GetParam();
  const std::string suffix = gz ? ".gz" : "";
  const std::string images = Write("images" + suffix, ImagesIdx(5, 2, 3), gz);
  const std::string labels = Write("labels" + suffix, LabelsIdx({4, 3, 2, 1, 0}), gz);
  auto set = LoadLabelledImages({images + "," + labels, "test", 2, 1});
  ASSERT_TRUE(set.ok()) << set.error();
  EXPECT_EQ(set.value().count, 2);
  EXPECT_EQ(set.value().total, 5);
  EXPECT_EQ(set.value().rows, 2);
  EXPECT_EQ(set.value().cols, 3);
  EXPECT_EQ(set.value().channels, 1);
  EXPECT_EQ(set.value().labels, (std::vector<int32_t>{3, 2}));
  EXPECT_EQ(set.value().classes, 4);  // not named like (Fashion-)MNIST: the largest label read + 1
  ASSERT_EQ(set.value().pixels.size(), 12u);
  EXPECT_EQ(set.value().pixels[0], 10);  // image 1, pixel 0
  EXPECT_EQ(set.value().pixels[11], 25);  // image 2, pixel 5
  EXPECT_NE(set.value().description.find("images 1..2 of 5"), std::string::npos) << set.value().description;

  // value = (pixel * scale - mean) / std, one channel, NCHW.
  auto pre = ParseImagePreprocess("scale=0.1,mean=1,std=2,layout=nchw");
  ASSERT_TRUE(pre.ok());
  auto tensor = LabelledImageTensor(set.value(), 1, pre.value());
  ASSERT_TRUE(tensor.ok()) << tensor.error();
  EXPECT_EQ(tensor.value().shape, (std::vector<int64_t>{1, 1, 2, 3}));
  EXPECT_FLOAT_EQ(tensor.value().as<float>()[0], (20 * 0.1f - 1) / 2);
  EXPECT_FLOAT_EQ(tensor.value().as<float>()[5], (25 * 0.1f - 1) / 2);
  EXPECT_FALSE(LabelledImageTensor(set.value(), 2, pre.value()).ok());
  // A grey image with a mean per colour is an error, not a silent use of the first.
  auto colours = ParseImagePreprocess("mean=0.1:0.2:0.3");
  ASSERT_TRUE(colours.ok());
  auto wrong = LabelledImageTensor(set.value(), 0, colours.value());
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().find("1 channel"), std::string::npos) << wrong.error();
}

INSTANTIATE_TEST_SUITE_P(GzipAndRaw, LabelledImagesTest, ::testing::Bool());

TEST(LabelledImages, ClearErrorsForCorruptFiles) {
  const std::string labels = Write("good_labels", LabelsIdx({1, 2, 3}), false);
  const std::string images = Write("good_images", ImagesIdx(3, 2, 2), false);
  // Images and labels swapped.
  ExpectError(LoadLabelledImages({labels + "," + images}), {labels, "wrong magic number", "labels file"});
  // Not IDX at all.
  const std::string text = Write("text", "hello world, not idx", false);
  ExpectError(LoadLabelledImages({text + "," + labels}), {text, "wrong magic number 68 65 6c 6c"});
  // Truncated, raw and gzipped: the header declares more images than the file holds.
  const std::string short_raw = Write("short", ImagesIdx(2, 2, 2, 3), false);
  ExpectError(LoadLabelledImages({short_raw + "," + labels}), {short_raw, "truncated"});
  const std::string short_gz = Write("short.gz", ImagesIdx(2, 2, 2, 3), true);
  ExpectError(LoadLabelledImages({short_gz + "," + labels}), {short_gz, "truncated"});
  // A gzip stream cut in the middle.
  const std::string whole_gz = Write("whole.gz", ImagesIdx(3, 40, 40), true);
  std::string gz_bytes;
  {
    std::ifstream in(whole_gz, std::ios::binary);
    gz_bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string cut_gz = Write("cut.gz", gz_bytes.substr(0, gz_bytes.size() / 2), false);
  ExpectError(LoadLabelledImages({cut_gz + "," + labels}), {cut_gz, "truncated"});
  // Counts that differ.
  const std::string four_labels = Write("four_labels", LabelsIdx({1, 2, 3, 4}), false);
  ExpectError(LoadLabelledImages({images + "," + four_labels}), {"3 images", "4 labels", four_labels});
  // Absurd dimensions: refused before anything is allocated.
  const std::string huge = Write("huge", std::string("\0\0\x08\x03", 4) + BigEndian(3) + BigEndian(100000) +
                                             BigEndian(100000), false);
  ExpectError(LoadLabelledImages({huge + "," + labels}), {huge, "100000x100000", "corrupt"});
  // A .gz that is not gzip.
  const std::string fake_gz = Write("fake.gz", ImagesIdx(3, 2, 2), false);
  ExpectError(LoadLabelledImages({fake_gz + "," + labels}), {fake_gz, "not gzip", "rename"});
  // Past the end, and a missing file.
  ExpectError(LoadLabelledImages({images + "," + labels, "test", 0, 3}), {"--offset 3", "3 images"});
  ExpectError(LoadLabelledImages({"/nonexistent/a,/nonexistent/b"}), {"'/nonexistent/a' does not exist"});
  ExpectError(LoadLabelledImages({"no-such-set"}), {"no-such-set", "fashion-mnist"});
  ExpectError(LoadLabelledImages({"fashion-mnist", "validation"}), {"--split 'validation'"});
}

TEST(LabelledImages, DirectoryOfMnistFilesChecksLabelRange) {
  const std::string dir = TempFilePath("idx_", "dir");
  std::filesystem::create_directories(dir);
  Write("dir/t10k-images-idx3-ubyte.gz", ImagesIdx(2, 2, 2), true);
  Write("dir/t10k-labels-idx1-ubyte.gz", LabelsIdx({9, 12}), true);
  // Named as Fashion-MNIST's files: 10 classes, and 12 is out of range.
  ExpectError(LoadLabelledImages({dir}), {"label 12 of image 1", "outside 0..9", "t10k-labels-idx1-ubyte.gz"});
  auto first = LoadLabelledImages({dir, "test", 1, 0});
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first.value().classes, 10);
  ExpectError(LoadLabelledImages({dir, "train"}), {"train-images-idx3-ubyte"});
}

TEST(LabelledImages, DebiansFashionMnist) {
  if (!std::filesystem::exists(std::string(kFashionMnistDir) + "/t10k-images-idx3-ubyte.gz")) {
    GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  }
  auto set = LoadLabelledImages({"fashion-mnist", "test", 100, 9950});
  ASSERT_TRUE(set.ok()) << set.error();
  EXPECT_EQ(set.value().count, 50);  // the limit is cut at the end of the split
  EXPECT_EQ(set.value().total, 10000);
  EXPECT_EQ(set.value().rows, 28);
  EXPECT_EQ(set.value().cols, 28);
  EXPECT_EQ(set.value().classes, 10);
}

}  // namespace
}  // namespace edgebench
