#include "monitor/file_channel_reader.h"

#include <utility>

#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

class FileChannelReader : public SensorReader {
 public:
  FileChannelReader(ReaderStatus status, std::vector<FileChannel> files)
      : status_(std::move(status)), files_(std::move(files)) {
    for (const FileChannel& file : files_) channels_.push_back(file.channel);
    status_.available = !channels_.empty();
  }

  const ReaderStatus& status() const override { return status_; }
  const std::vector<Channel>& channels() const override { return channels_; }

  void Read(int64_t /*t_ns*/, std::optional<double>* values, std::string* errors) override {
    for (size_t i = 0; i < files_.size(); ++i) {
      auto value = ReadFileChannel(files_[i]);
      if (value.ok()) {
        values[i] = value.value();
      } else {
        errors[i] = value.error();
      }
    }
  }

 private:
  ReaderStatus status_;
  std::vector<FileChannel> files_;
  std::vector<Channel> channels_;
};

}  // namespace

Result<double> ReadFileChannel(const FileChannel& file) {
  auto first = file.before_at ? ReadIntegerBeforeAt(file.path) : ReadIntegerFile(file.path);
  if (!first.ok()) return Status::Error(first.error());
  double value = static_cast<double>(first.value()) * file.scale;
  if (!file.second_path.empty()) {
    auto second = ReadIntegerFile(file.second_path);
    if (!second.ok()) return Status::Error(second.error());
    value *= static_cast<double>(second.value());
  }
  return value;
}

std::unique_ptr<SensorReader> MakeFileChannelReader(ReaderStatus status,
                                                    std::vector<FileChannel> files) {
  return std::make_unique<FileChannelReader>(std::move(status), std::move(files));
}

Channel* AddReadableFileChannel(std::vector<FileChannel>& files, std::vector<std::string>& unreadable,
                                const SensorRoots& roots, const std::string& path, Channel channel,
                                double scale, bool before_at) {
  if (!PathExists(path)) return nullptr;
  auto value = before_at ? ReadIntegerBeforeAt(path) : ReadIntegerFile(path);
  if (!value.ok()) {
    unreadable.push_back(value.error());
    return nullptr;
  }
  FileChannel file;
  file.path = path;
  file.scale = scale;
  file.before_at = before_at;
  file.channel = std::move(channel);
  file.channel.source = RelativeToRoot(roots, path);
  files.push_back(std::move(file));
  return &files.back().channel;
}

void AddReason(ReaderStatus& status, const std::string& why) {
  status.reason += (status.reason.empty() ? "" : "; ") + why;
}

std::string RelativeToRoot(const SensorRoots& roots, const std::string& path) {
  const std::string prefix = roots.Path("");
  if (path.rfind(prefix, 0) == 0) return path.substr(prefix.size());
  return path;
}

}  // namespace edgebench
