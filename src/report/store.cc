#include "report/store.h"
#include "load/finish_record.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace edgebench {
namespace {

std::string Errno() { return std::strerror(errno); }

// The file's size after its last newline; the bytes beyond it are a torn line.
off_t LastWholeLineEnd(int fd, off_t size) {
  char buffer[4096];
  off_t end = size;
  while (end > 0) {
    const off_t start = end > static_cast<off_t>(sizeof buffer) ? end - static_cast<off_t>(sizeof buffer) : 0;
    const ssize_t n = ::pread(fd, buffer, static_cast<size_t>(end - start), start);
    if (n <= 0) return size;  // unreadable: leave the file as it is
    for (ssize_t i = n - 1; i >= 0; --i) {
      if (buffer[i] == '\n') return start + i + 1;
    }
    end = start;
  }
  return 0;
}

// flock(2) on `fd`, retried when a signal interrupts the wait.
bool Lock(int fd, int operation) {
  while (::flock(fd, operation) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

// A descriptor closed when it goes out of scope (which releases its flock).
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Result<ResultStore> ResultStore::Open(const std::string& directory) {
  if (directory.empty()) return Status::Error("--out needs a directory name");
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) {
    return Status::Error("cannot create results directory '" + directory + "': " + ec.message());
  }
  ResultStore store;
  store.path_ = (std::filesystem::path(directory) / "results.jsonl").string();
  return store;
}

Status ResultStore::Append(const Record& record) {
  std::string warning;
  Status s = AppendJsonLine(path_, RecordToJson(record), &warning);
  if (!warning.empty()) std::cerr << "edgebench: warning: " << warning << "\n";
  return s;
}

Status AppendJsonLine(const std::string& path, const nlohmann::json& value, std::string* warning) {
  const std::string line = value.dump() + "\n";
  const FileDescriptor file(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  const int fd = file.get();
  if (fd < 0) return Status::Error("cannot open '" + path + "': " + Errno());
  // One writer at a time, for the whole append and the torn-tail repair: without it two
  // processes appending to one store (two suites, a suite and a run) wrote at the same offset,
  // or one cut the other's record in the middle of its write as "torn".
  if (!Lock(fd, LOCK_EX)) return Status::Error("cannot lock '" + path + "' for writing: " + Errno());
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Status::Error("cannot stat '" + path + "': " + Errno());
  off_t start = st.st_size;
  if (start > 0) {
    const off_t whole = LastWholeLineEnd(fd, start);
    if (whole < start) {
      if (::ftruncate(fd, whole) != 0) {
        return Status::Error("'" + path + "' ends in a torn line that cannot be cut off: " + Errno());
      }
      if (warning) {
        *warning = "cut a torn line of " + std::to_string(start - whole) + " bytes from the end of '" + path +
                   "' (a write that was interrupted) before appending";
      }
      start = whole;
    }
  }
  size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::pwrite(fd, line.data() + written, line.size() - written, start + static_cast<off_t>(written));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? Errno() : "no progress";
      // All or nothing: cut the partial record so the store keeps only whole lines.
      const bool cut = ::ftruncate(fd, start) == 0;
      return Status::Error("cannot write a record to '" + path + "': " + why +
                           (cut ? "; the partial record was removed, earlier records are intact"
                                : "; the partial record could not be removed either"));
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const std::string why = Errno();
    const bool cut = ::ftruncate(fd, start) == 0;
    return Status::Error("cannot fsync '" + path + "': " + why +
                         (cut ? "; the record was removed again, earlier records are intact" : ""));
  }
  return Status::Ok();
}

Result<StoreContents> ReadStore(const std::string& path) {
  // Shared with other readers, never beside a writer: a record being appended is not read as
  // a torn line.
  const FileDescriptor lock(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (lock.get() >= 0 && !Lock(lock.get(), LOCK_SH)) {
    return Status::Error("cannot lock '" + path + "' for reading: " + Errno());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read '" + path + "'");
  StoreContents contents;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const bool torn = in.eof();  // the last line had no newline: a write that was cut short
    if (line.empty()) continue;
    const auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    const std::string where = path + ":" + std::to_string(line_number) + ": ";
    if (json.is_discarded()) {
      contents.warnings.push_back(where + (torn ? "a torn last line (an interrupted write), skipped"
                                                : "not valid JSON, skipped"));
      continue;
    }
    auto record = RecordFromJson(json);
    if (!record.ok()) {
      contents.warnings.push_back(where + record.error() + ", skipped");
      continue;
    }
    for (const std::string& w : record.value().read_warnings) contents.warnings.push_back(where + w);
    contents.records.push_back(record.take());
  }
  return contents;
}

Result<std::vector<Record>> ReadRecords(const std::string& path) {
  auto contents = ReadStore(path);
  if (!contents.ok()) return contents.status();
  for (const std::string& w : contents.value().warnings) {
    if (w.find(", skipped") != std::string::npos) return Status::Error(w);
  }
  return std::move(contents.value().records);
}

Result<std::string> StoreResultsPath(const std::string& store) {
  std::error_code ec;
  if (std::filesystem::is_directory(store, ec)) {
    const std::string path = (std::filesystem::path(store) / "results.jsonl").string();
    if (!std::filesystem::is_regular_file(path, ec)) {
      return Status::Error("store '" + store + "' is a directory without results.jsonl: give the --out "
                           "directory of a run, or a .jsonl file");
    }
    return path;
  }
  if (!std::filesystem::is_regular_file(store, ec)) {
    return Status::Error("store '" + store + "' does not exist: give the --out directory of a run, or a "
                         ".jsonl file");
  }
  return store;
}

}  // namespace edgebench
