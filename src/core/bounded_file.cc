#include "core/bounded_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace edgebench {
namespace {

std::string KindOfMode(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string Mib(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace

std::string NonRegularFileKind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  return KindOfMode(st.st_mode);
}

std::string NotAFileText(const std::string& path) {
  const std::string kind = NonRegularFileKind(path);
  return kind.empty() ? "does not exist" : "is " + kind + ", not a file";
}

Result<std::string> ReadBoundedTextFile(const std::string& path, uint64_t max_bytes, const std::string& what) {
  const std::string named = "cannot read " + what + " '" + path + "': ";
  // O_NONBLOCK: opening a FIFO with no writer would block here; the check below refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Status::Error(named + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return Status::Error(named + std::strerror(error));
  }
  if (const std::string kind = KindOfMode(st.st_mode); !kind.empty()) {
    ::close(fd);
    return Status::Error(named + "it is " + kind + ", not a regular file");
  }
  const auto too_large = [&] {
    return Status::Error(named + "it is larger than " + Mib(max_bytes) + ", far more than a " + what +
                         " holds; is it the right file?");
  };
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return too_large();
  }
  std::string text;
  text.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return Status::Error(named + std::strerror(error));
    }
    if (n == 0) break;
    if (text.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      return too_large();
    }
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace edgebench
