// Dropping files from the page cache for a cold start: a file on disk leaves it, a file this
// process keeps mapped does not (and the detail says why), a file on tmpfs cannot (and the
// detail says so), and a missing file is an error, not "dropped".
#include "core/page_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../test_util.h"

namespace edgebench {
namespace {

// A 1 MiB file under `dir`, read once so its pages are in the cache.
std::string CachedFile(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/edgebench_page_cache_" + std::to_string(::getpid()) + "_" + name;
  {
    std::ofstream out(path, std::ios::binary);
    const std::string block(4096, 'x');
    for (int i = 0; i < 256; ++i) out << block;
  }
  ::sync();
  std::ifstream in(path, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all.size(), 1u << 20);
  return path;
}

// The build tree is on a disk-backed file system; the test's temporary directory is tmpfs in
// the development root.
std::string DiskDirectory() { return std::filesystem::path(testing::TestModel("")).parent_path().string(); }

TEST(PageCache, AFileOnDiskLeavesTheCacheAndTheCountsProveIt) {
  const std::string path = CachedFile(DiskDirectory(), "disk");
  int64_t pages = 0;
  std::string error;
  ASSERT_GT(ResidentPages(path, &pages, &error), 0) << error;
  const PageCacheDrop drop = DropFromPageCache({path});
  if (drop.detail.find("the file is on tmpfs") != std::string::npos) GTEST_SKIP() << "the build tree is on tmpfs";
  ASSERT_EQ(drop.files.size(), 1u);
  const PageCacheFile& f = drop.files[0];
  EXPECT_EQ(f.bytes, 1 << 20);
  EXPECT_EQ(f.pages * drop.page_bytes, 1 << 20);
  EXPECT_GT(f.resident_before, 0);
  EXPECT_EQ(f.resident_after, 0) << drop.detail;
  EXPECT_TRUE(drop.dropped) << drop.detail;
  EXPECT_TRUE(drop.detail.empty());
  std::filesystem::remove(path);
}

TEST(PageCache, AFileAProcessKeepsMappedStaysAndSaysWhy) {
  const std::string path = CachedFile(DiskDirectory(), "mapped");
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  void* map = ::mmap(nullptr, 1 << 20, PROT_READ, MAP_SHARED, fd, 0);
  ASSERT_NE(map, MAP_FAILED);
  volatile unsigned char sum = 0;
  for (size_t i = 0; i < (1u << 20); i += 4096) sum = sum + static_cast<const unsigned char*>(map)[i];
  const PageCacheDrop drop = DropFromPageCache({path});
  if (drop.detail.find("the file is on tmpfs") != std::string::npos) GTEST_SKIP() << "the build tree is on tmpfs";
  EXPECT_FALSE(drop.dropped);
  EXPECT_GT(drop.files[0].resident_after, 0);
  EXPECT_NE(drop.detail.find("pages stayed in the page cache (mapped or locked by a process"), std::string::npos)
      << drop.detail;
  ::munmap(map, 1 << 20);
  ::close(fd);
  std::filesystem::remove(path);
}

TEST(PageCache, ATmpfsFileCannotLeaveAndAMissingFileIsAnError) {
  const std::string dir = ::testing::TempDir();
  const std::string path = CachedFile(dir.substr(0, dir.size() - (dir.back() == '/' ? 1 : 0)), "tmpfs");
  const PageCacheDrop drop = DropFromPageCache({path});
  if (drop.dropped) {
    GTEST_SKIP() << ::testing::TempDir() << " is disk-backed here: no tmpfs to test against";
  }
  EXPECT_NE(drop.detail.find("the file is on tmpfs"), std::string::npos) << drop.detail;
  std::filesystem::remove(path);

  const PageCacheDrop missing = DropFromPageCache({"/nonexistent/model.onnx"});
  EXPECT_FALSE(missing.dropped);
  EXPECT_NE(missing.detail.find("/nonexistent/model.onnx: cannot open"), std::string::npos) << missing.detail;
}

}  // namespace
}  // namespace edgebench
