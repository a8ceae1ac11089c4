#include "worker/memory_mapper.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "core/clock.h"
#include "monitor/memory_map.h"

namespace edgebench {

MemoryMapper::MemoryMapper(const MonitorSettings& settings, const std::string& artifact, int64_t first_checkpoint_ns)
    : root_(settings.sysfs_root), first_checkpoint_ns_(first_checkpoint_ns) {
  std::error_code ec;
  if (!artifact.empty() && std::filesystem::is_regular_file(artifact, ec)) {
    const std::string path = std::filesystem::weakly_canonical(artifact, ec).string();
    files_.push_back({path, static_cast<int64_t>(std::filesystem::file_size(artifact, ec))});
  }
}

MemoryMapper::~MemoryMapper() { StopCheckpoints(); }

void MemoryMapper::Take(const std::string& moment) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!reason_.empty()) return;
  std::vector<std::string> keep;
  for (const MonitorRecord::ModelFile& f : files_) keep.push_back(f.path);
  auto snapshot = TakeMemorySnapshot(root_, moment, keep);
  if (!snapshot.ok()) {
    reason_ = "no memory map after '" + moment + "': " + snapshot.error();
    return;
  }
  snapshot.value().t_ns = NowNs();
  snapshots_.push_back(snapshot.take());
}

void MemoryMapper::StartCheckpoints() {
  if (checkpoints_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = false;
  }
  const int64_t start = NowNs();
  checkpoints_ = std::thread([this, start] { Checkpoints(start); });
}

void MemoryMapper::StopCheckpoints() {
  if (!checkpoints_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_wake_.notify_all();
  checkpoints_.join();
}

void MemoryMapper::Checkpoints(int64_t start_ns) {
  // As the sampler's thread: the lowest weight, so that it never preempts the runtime's threads.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
  int64_t after_ns = first_checkpoint_ns_;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const auto due = std::chrono::steady_clock::now() + std::chrono::nanoseconds(start_ns + after_ns - NowNs());
      if (stop_wake_.wait_until(lock, due, [this] { return stop_; })) return;
    }
    Take("measure +" + (after_ns % 1'000'000'000 == 0 ? std::to_string(after_ns / 1'000'000'000) + "s"
                                                        : std::to_string(after_ns / 1'000'000) + "ms"));
    after_ns *= 2;
  }
}

size_t MemoryMapper::taken() {
  std::lock_guard<std::mutex> lock(mutex_);
  return snapshots_.size();
}

void MemoryMapper::Finish(MonitorRecord& m, int64_t origin_ns) {
  StopCheckpoints();
  std::lock_guard<std::mutex> lock(mutex_);
  for (MemorySnapshot& s : snapshots_) s.t_ns -= origin_ns;
  m.memory_map = std::move(snapshots_);
  m.memory_map_reason = reason_;
  m.model_files = files_;
}

}  // namespace edgebench
