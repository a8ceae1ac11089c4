#include "monitor/sysfs_text.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/strings.h"

namespace edgebench {

Result<std::string> ReadSmallTextFile(const std::string& path) {
  // O_NONBLOCK: a FIFO or device node planted in a copied tree must not hang the sampler.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::Error(path + ": " + std::strerror(errno));
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return Status::Error(path + ": " + std::strerror(error));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > (1u << 20)) break;  // no sensor file is this large; do not read forever
  }
  ::close(fd);
  return text;
}

Result<std::string> ReadWordFile(const std::string& path) {
  auto text = ReadSmallTextFile(path);
  if (!text.ok()) return text;
  std::string word = text.take();
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  word.erase(word.begin(), std::find_if(word.begin(), word.end(), not_space));
  word.erase(std::find_if(word.rbegin(), word.rend(), not_space).base(), word.end());
  return word;
}

namespace {

// The file's integer, followed by nothing or (when `stop` is not '\0') by `stop` and anything
// after it; `what` ends the error ("not an integer").
Result<int64_t> ReadIntegerUpTo(const std::string& path, char stop, const std::string& what) {
  auto word = ReadWordFile(path);
  if (!word.ok()) return Status::Error(word.error());
  const std::string& text = word.value();
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end == text.c_str() || (*end != '\0' && (stop == '\0' || *end != stop)) || errno == ERANGE) {
    return Status::Error(path + ": holds '" + text.substr(0, 40) + "', " + what);
  }
  return static_cast<int64_t>(value);
}

}  // namespace

Result<int64_t> ReadIntegerFile(const std::string& path) { return ReadIntegerUpTo(path, '\0', "not an integer"); }

Result<int64_t> ReadIntegerBeforeAt(const std::string& path) {
  return ReadIntegerUpTo(path, '@', "not an integer before '@'");
}

std::vector<std::string> ListDirectory(const std::string& path, const std::string& prefix) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return names;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (name.rfind(prefix, 0) == 0) names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end(), NaturalLess);
  return names;
}

bool PathExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool IsNumberedName(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  for (size_t i = prefix.size(); i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  }
  return true;
}

}  // namespace edgebench
