#include "report/store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace edgebench {

Result<ResultStore> ResultStore::Open(const std::string& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) {
    return Status::Error("cannot create results directory '" + directory + "': " + ec.message());
  }
  ResultStore store;
  store.path_ = (std::filesystem::path(directory) / "results.jsonl").string();
  return store;
}

Status ResultStore::Append(const Record& record) { return AppendJsonLine(path_, RecordToJson(record)); }

Status AppendJsonLine(const std::string& path_, const nlohmann::json& value) {
  const std::string line = value.dump() + "\n";
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error("cannot open '" + path_ + "': " + std::strerror(errno));
  size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      return Status::Error("cannot write '" + path_ + "': " + why);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return Status::Error("cannot fsync '" + path_ + "': " + why);
  }
  ::close(fd);
  return Status::Ok();
}

Result<std::vector<Record>> ReadRecords(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read '" + path + "'");
  std::vector<Record> records;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    const auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) {
      return Status::Error(path + ":" + std::to_string(line_number) + ": not valid JSON");
    }
    auto record = RecordFromJson(json);
    if (!record.ok()) {
      return Status::Error(path + ":" + std::to_string(line_number) + ": " + record.error());
    }
    records.push_back(record.take());
  }
  return records;
}

}  // namespace edgebench
