// Drops known noise from the process's stderr while a scope is active and passes every other
// line through. Debian's ONNX Runtime prints ~1,260 "Schema error: ... already registered"
// lines when the first session of a process is created; users must not see them, but any
// other message a runtime writes must still reach them.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace edgebench {

class StderrFilter {
 public:
  // Lines for which `drop` returns true are counted and discarded. `fd` is stderr's by default;
  // STDOUT_FILENO filters what a library writes to stdout (LiteRT's OpenCL loader does).
  explicit StderrFilter(std::function<bool(const std::string&)> drop, int fd = 2);
  ~StderrFilter();
  StderrFilter(const StderrFilter&) = delete;
  StderrFilter& operator=(const StderrFilter&) = delete;

  // Lines dropped so far (final once the filter is destroyed).
  int dropped() const { return dropped_.load(); }

 private:
  void Pump();
  void FlushStreams() const;  // the C and C++ streams of fd_

  std::function<bool(const std::string&)> drop_;
  int fd_ = 2;
  int saved_fd_ = -1;
  int read_fd_ = -1;
  std::thread pump_;
  std::atomic<int> dropped_{0};
};

// The ONNX schema re-registration noise.
bool IsOnnxSchemaNoise(const std::string& line);

}  // namespace edgebench
