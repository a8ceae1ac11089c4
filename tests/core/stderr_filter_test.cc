#include "core/stderr_filter.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace edgebench {
namespace {

TEST(StderrFilter, DropsSchemaNoiseAndPassesEverythingElse) {
  char path[] = "/tmp/edgebench_stderr_XXXXXX";
  const int capture = ::mkstemp(path);
  ASSERT_GE(capture, 0);
  std::fflush(stderr);
  const int original = ::dup(STDERR_FILENO);
  ::dup2(capture, STDERR_FILENO);
  {
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
  }
  std::fflush(stderr);
  ::dup2(original, STDERR_FILENO);
  ::close(original);
  ::close(capture);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  ::unlink(path);
  EXPECT_EQ(text.str(), "a real warning\nSchema error: something else entirely\nraw write\n");
}

TEST(StderrFilter, FiltersStdoutWhenAskedAndLeavesStderrAlone) {
  char path[] = "/tmp/edgebench_stdout_XXXXXX";
  const int capture = ::mkstemp(path);
  ASSERT_GE(capture, 0);
  std::fflush(stdout);
  const int original = ::dup(STDOUT_FILENO);
  ::dup2(capture, STDOUT_FILENO);
  {
    StderrFilter filter([](const std::string& line) { return line.rfind("INFO: ", 0) == 0; }, STDOUT_FILENO);
    const char noise[] = "INFO: Failed to load OpenCL library with dlopen: libOpenCL.so\n";
    ASSERT_EQ(::write(STDOUT_FILENO, noise, sizeof noise - 1), static_cast<ssize_t>(sizeof noise - 1));
    std::printf("a result\n");
  }
  std::fflush(stdout);
  ::dup2(original, STDOUT_FILENO);
  ::close(original);
  ::close(capture);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  ::unlink(path);
  EXPECT_EQ(text.str(), "a result\n");
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
