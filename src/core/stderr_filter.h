// Drops known noise from the process's stderr while a scope is active and passes every other
// line through. Debian's ONNX Runtime prints ~1,260 "Schema error: ... already registered"
// lines when the first session of a process is created; users must not see them, but any
// other message a runtime writes must still reach them.
//
// The descriptor is the process's: two filters of one descriptor overlapping on two threads
// would each save the other's pipe as "the original", and the first to end would wait forever
// for its pipe's end of file (streams whose sessions ran their first queries at once hung so).
// A filter therefore holds its descriptor's lock from construction to destruction: filters of
// one descriptor nest on one thread (restored in reverse order) and take turns across threads.
// It must end on the thread that made it.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
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
  std::unique_lock<std::recursive_mutex> turn_;  // the descriptor's, held while the filter lives
  int saved_fd_ = -1;
  int read_fd_ = -1;
  std::thread pump_;
  std::atomic<int> dropped_{0};
};

// The ONNX schema re-registration noise.
bool IsOnnxSchemaNoise(const std::string& line);

}  // namespace edgebench
