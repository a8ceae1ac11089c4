#include "core/stderr_filter.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace edgebench {
namespace {

void WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n <= 0) return;
    data += n;
    size -= static_cast<size_t>(n);
  }
}

// One lock for stdout's filters and one for every other descriptor's (stderr's).
std::recursive_mutex& TurnOf(int fd) {
  static std::recursive_mutex stdout_turn;
  static std::recursive_mutex stderr_turn;
  return fd == STDOUT_FILENO ? stdout_turn : stderr_turn;
}

}  // namespace

bool IsOnnxSchemaNoise(const std::string& line) {
  return line.rfind("Schema error: Trying to register schema with name ", 0) == 0 &&
         line.find("but it is already registered") != std::string::npos;
}

StderrFilter::StderrFilter(std::function<bool(const std::string&)> drop, int fd)
    : drop_(std::move(drop)), fd_(fd), turn_(TurnOf(fd)) {
  FlushStreams();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;  // no filter; output passes unfiltered
  saved_fd_ = ::fcntl(fd_, F_DUPFD_CLOEXEC, 3);
  if (saved_fd_ < 0 || ::dup2(fds[1], fd_) < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    if (saved_fd_ >= 0) ::close(saved_fd_);
    saved_fd_ = -1;
    return;
  }
  ::close(fds[1]);
  read_fd_ = fds[0];
  pump_ = std::thread([this] { Pump(); });
}

StderrFilter::~StderrFilter() {
  if (saved_fd_ < 0) return;
  FlushStreams();
  ::dup2(saved_fd_, fd_);  // closes the pipe's last write end: the pump sees EOF
  pump_.join();
  ::close(read_fd_);
  ::close(saved_fd_);
}

void StderrFilter::FlushStreams() const {
  if (fd_ == STDOUT_FILENO) {
    std::fflush(stdout);
    std::cout.flush();
  } else {
    std::fflush(stderr);
    std::cerr.flush();
  }
}

void StderrFilter::Pump() {
  std::string pending;
  char buffer[8192];
  auto emit = [&](const std::string& line) {
    // A noise line is followed by an empty line in ORT's output; drop that too.
    if (drop_(line)) {
      ++dropped_;
      return;
    }
    WriteAll(saved_fd_, line.data(), line.size());
    WriteAll(saved_fd_, "\n", 1);
  };
  bool last_dropped = false;
  for (;;) {
    const ssize_t n = ::read(read_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    pending.append(buffer, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      const std::string line = pending.substr(start, nl - start);
      if (line.empty() && last_dropped) {
        last_dropped = false;
        continue;
      }
      const int before = dropped_.load();
      emit(line);
      last_dropped = dropped_.load() != before;
    }
    pending.erase(0, start);
  }
  if (!pending.empty()) emit(pending);
}

}  // namespace edgebench
