// A record is untrusted input (issue 50, class 2): the image a diffusion record names is read
// only inside the record's store, only a regular file, bounded, only a PNG.
#include "report/html/report_pipelines.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

TEST(InlineStorePng, OnlyAPngInsideTheStoreIsEmbedded) {
  namespace fs = std::filesystem;
  const fs::path dir = testing::TempFilePath("report_png_", "dir");
  const fs::path store = dir / "store", elsewhere = dir / "elsewhere";
  fs::create_directories(store / "images");
  fs::create_directories(elsewhere);
  const std::string png_bytes = std::string("\x89PNG\r\n\x1a\n", 8) + "rest";
  std::ofstream(store / "images" / "a.png", std::ios::binary) << png_bytes;
  std::ofstream(elsewhere / "b.png", std::ios::binary) << png_bytes;

  const InlinedImage inside = InlineStorePng((store / "images" / "a.png").string(), store.string());
  EXPECT_EQ(inside.data_uri.get<std::string>().rfind("data:image/png;base64,", 0), 0u);
  EXPECT_EQ(inside.note, "");

  const auto refused = [&](const fs::path& path, const std::string& says) {
    const InlinedImage image = InlineStorePng(path.string(), store.string());
    EXPECT_TRUE(image.data_uri.is_null()) << path;
    EXPECT_NE(image.note.find(says), std::string::npos) << path << ": " << image.note;
  };
  refused(elsewhere / "b.png", "is outside the store's directory");
  refused("/dev/zero", "is outside the store's directory");
  refused(store / ".." / "elsewhere" / "b.png", "is outside the store's directory");
  fs::create_symlink(elsewhere / "b.png", store / "images" / "link.png");
  refused(store / "images" / "link.png", "is outside the store's directory");
  ASSERT_EQ(::mkfifo((store / "images" / "fifo.png").c_str(), 0600), 0);
  refused(store / "images" / "fifo.png", "it is a FIFO");  // a FIFO hung the report
  std::ofstream(store / "images" / "big.png", std::ios::binary) << png_bytes << std::string(5 << 20, 'x');
  refused(store / "images" / "big.png", "larger than 4 MiB");
  std::ofstream(store / "images" / "text.png") << "not a png";
  refused(store / "images" / "text.png", "is not a PNG");
  EXPECT_TRUE(InlineStorePng("", store.string()).data_uri.is_null());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
