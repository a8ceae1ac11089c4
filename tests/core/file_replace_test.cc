// A file written whole or not at all: the new bytes replace the old, and a failure leaves the old
// file and no temporary beside it.
#include "core/file_replace.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(FileReplace, NewBytesReplaceTheOldAndNoTemporaryStays) {
  const std::string dir = TempFilePath("file_replace_", "dir");
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/limits.json";
  ASSERT_TRUE(ReplaceFileContents(path, "old").ok());
  ASSERT_TRUE(ReplaceFileContents(path, std::string("new\0bytes", 9)).ok());
  EXPECT_EQ(Contents(path), std::string("new\0bytes", 9));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
  std::filesystem::remove_all(dir);
}

TEST(FileReplace, AFailureNamesThePathAndLeavesTheOldFile) {
  const std::string missing = TempFilePath("file_replace_", "absent") + "/sub/out.json";
  const Status no_directory = ReplaceFileContents(missing, "x");
  ASSERT_FALSE(no_directory.ok());
  EXPECT_NE(no_directory.message().find("cannot write '" + missing + "'"), std::string::npos) << no_directory.message();
  // The target is a directory: the rename fails, the directory stays, the temporary goes.
  const std::string dir = TempFilePath("file_replace_", "isdir");
  std::filesystem::create_directories(dir + "/target/inside");
  const Status onto_directory = ReplaceFileContents(dir + "/target", "x");
  ASSERT_FALSE(onto_directory.ok());
  EXPECT_NE(onto_directory.message().find("renaming the finished file into place failed"), std::string::npos)
      << onto_directory.message();
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/target/inside"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
  std::filesystem::remove_all(dir);
}

// A write cut short (a full disk; here a file-size limit, which fails the write the same way):
// an error that says so, the old file as it was, no temporary left.
TEST(FileReplace, AWriteCutShortKeepsTheOldFile) {
  const std::string dir = TempFilePath("file_replace_", "full");
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/report.html";
  ASSERT_TRUE(ReplaceFileContents(path, "old").ok());
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    const Status s = ReplaceFileContents(path, std::string(1 << 20, 'x'));
    ::_exit(!s.ok() && s.message().find("failed (disk full?)") != std::string::npos ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the cut-short write was not reported";
  EXPECT_EQ(Contents(path), "old");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
