#include "core/stderr_filter.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <fstream>
#include <functional>
#include <sstream>

namespace edgebench {
namespace {

// What `write` sends to descriptor `fd` while it runs, read back from a file `fd` pointed to.
std::string Captured(int fd, const std::function<void()>& write) {
  char path[] = "/tmp/edgebench_filtered_XXXXXX";
  const int capture = ::mkstemp(path);
  EXPECT_GE(capture, 0);
  if (capture < 0) return "";
  std::fflush(fd == STDOUT_FILENO ? stdout : stderr);
  const int original = ::dup(fd);
  ::dup2(capture, fd);
  write();
  std::fflush(fd == STDOUT_FILENO ? stdout : stderr);
  ::dup2(original, fd);
  ::close(original);
  ::close(capture);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  ::unlink(path);
  return text.str();
}

TEST(StderrFilter, DropsSchemaNoiseAndPassesEverythingElse) {
  const std::string text = Captured(STDERR_FILENO, [] {
    StderrFilter filter(IsOnnxSchemaNoise);
    std::fprintf(stderr,
                 "Schema error: Trying to register schema with name Abs (domain:  version: 1) "
                 "from file ./onnx/defs/math/old.cc line 2747, but it is already registered "
                 "from file ./onnx/defs/math/old.cc line 2747\n\n");
    std::fprintf(stderr, "a real warning\n");
    std::fprintf(stderr, "Schema error: something else entirely\n");
    std::fflush(stderr);
    // Written straight to the descriptor, as a C library would.
    const char raw[] = "raw write\n";
    ASSERT_EQ(::write(STDERR_FILENO, raw, sizeof raw - 1), static_cast<ssize_t>(sizeof raw - 1));
  });
  EXPECT_EQ(text, "a real warning\nSchema error: something else entirely\nraw write\n");
}

TEST(StderrFilter, FiltersStdoutWhenAskedAndLeavesStderrAlone) {
  const std::string text = Captured(STDOUT_FILENO, [] {
    StderrFilter filter([](const std::string& line) { return line.rfind("INFO: ", 0) == 0; }, STDOUT_FILENO);
    const char noise[] = "INFO: Failed to load OpenCL library with dlopen: libOpenCL.so\n";
    ASSERT_EQ(::write(STDOUT_FILENO, noise, sizeof noise - 1), static_cast<ssize_t>(sizeof noise - 1));
    std::printf("a result\n");
  });
  EXPECT_EQ(text, "a result\n");
}

// Two sessions' first runs on two streams, each in a filter of stderr, their lifetimes
// overlapping (A made, B made, A ends, B ends): this hung when each saved the other's pipe as
// stderr. Each filter now waits for the other's turn, and both pass their lines through.
TEST(StderrFilter, FiltersOverlappingOnTwoThreadsEndAndPassEveryLine) {
  const std::string text = Captured(STDERR_FILENO, [] {
    std::atomic<bool> a_made{false};
    std::atomic<bool> b_started{false};
    std::thread a([&] {
      StderrFilter filter([](const std::string& line) { return line == "noise"; });
      a_made = true;
      while (!b_started) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // B is now waiting for its turn
      std::fprintf(stderr, "noise\nfrom a\n");
    });
    std::thread b([&] {
      while (!a_made) std::this_thread::yield();
      b_started = true;
      StderrFilter filter([](const std::string& line) { return line == "noise"; });
      std::fprintf(stderr, "from b\nnoise\n");
    });
    a.join();
    b.join();
  });
  EXPECT_EQ(text, "from a\nfrom b\n");
}

TEST(StderrFilter, RecognisesOnlyTheRegistrationNoise) {
  EXPECT_TRUE(IsOnnxSchemaNoise(
      "Schema error: Trying to register schema with name Add (domain:  version: 1) from file "
      "x.cc line 1, but it is already registered from file x.cc line 1"));
  EXPECT_FALSE(IsOnnxSchemaNoise("Schema error: Trying to register schema with name Add"));
  EXPECT_FALSE(IsOnnxSchemaNoise("error: Beta is expected to have 1 dimension, got 3"));
}

}  // namespace
}  // namespace edgebench
