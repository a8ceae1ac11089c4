// Files named by users, records and stores are read only when they are regular files, and only
// up to a bound (issue 50: a FIFO hung a run, /dev/zero exhausted memory).
#include "core/bounded_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace edgebench {
namespace {

class BoundedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("bounded_file_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(BoundedFile, ReadsARegularFileWithinItsBound) {
  std::ofstream(Path("a.yaml")) << "name: x\n";
  auto text = ReadBoundedTextFile(Path("a.yaml"), 100, "suite file");
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_EQ(text.value(), "name: x\n");
  EXPECT_EQ(NonRegularFileKind(Path("a.yaml")), "");
}

TEST_F(BoundedFile, RefusesAFileLargerThanItsBoundBeforeReadingIt) {
  std::ofstream(Path("big.yaml")) << std::string(4096, 'x');
  auto text = ReadBoundedTextFile(Path("big.yaml"), 1000, "pipeline file");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().find("cannot read pipeline file '" + Path("big.yaml") + "': it is larger than 1 MiB"),
            std::string::npos)
      << text.error();
}

TEST_F(BoundedFile, RefusesAFifoWithoutBlocking) {
  ASSERT_EQ(::mkfifo(Path("fifo.yaml").c_str(), 0600), 0);
  auto text = ReadBoundedTextFile(Path("fifo.yaml"), 1 << 20, "pipeline file");  // no writer: would block
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().find("it is a FIFO, not a regular file"), std::string::npos) << text.error();
  EXPECT_EQ(NonRegularFileKind(Path("fifo.yaml")), "a FIFO");
}

TEST_F(BoundedFile, RefusesADeviceThatNeverEndsAndADirectory) {
  auto zero = ReadBoundedTextFile("/dev/zero", 1 << 20, "suite file");
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().find("it is a character device, not a regular file"), std::string::npos) << zero.error();
  auto dir = ReadBoundedTextFile(dir_.string(), 1 << 20, "suite file");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().find("it is a directory"), std::string::npos) << dir.error();
  auto missing = ReadBoundedTextFile(Path("none.yaml"), 1 << 20, "suite file");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("No such file"), std::string::npos) << missing.error();
}

}  // namespace
}  // namespace edgebench
