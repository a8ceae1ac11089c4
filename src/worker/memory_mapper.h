// --memory-map in the worker (docs/monitoring.md, "Memory map"): a snapshot of the worker's smaps
// at each moment the case is told of (stage and phase boundaries, never inside a timed query),
// and checkpoints inside the measured phase, taken on a thread of their own at nice 19 at 5, 10,
// 20, 40 s... into the phase (doubling, so that a long soak has a few dozen at most), named
// "measure +5s". The first snapshot that fails stops the map, with its reason.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/memory_snapshot.h"
#include "record/monitor_record.h"

namespace edgebench {

// The first checkpoint 5 s into the measured phase, each next one twice as far in.
inline constexpr int64_t kFirstCheckpointNs = 5'000'000'000;

class MemoryMapper {
 public:
  // `first_checkpoint_ns`: when the first checkpoint falls (tests make it short).
  MemoryMapper(const MonitorSettings& settings, const std::string& artifact,
               int64_t first_checkpoint_ns = kFirstCheckpointNs);
  ~MemoryMapper();
  MemoryMapper(const MemoryMapper&) = delete;
  MemoryMapper& operator=(const MemoryMapper&) = delete;

  void Take(const std::string& moment);
  // The measured phase's checkpoints: started as it starts, stopped (joined) as it ends.
  void StartCheckpoints();
  void StopCheckpoints();
  // Into the record, with times on the series' axis (after `origin_ns`).
  void Finish(MonitorRecord& m, int64_t origin_ns);
  size_t taken();  // snapshots so far

 private:
  void Checkpoints(int64_t start_ns);

  std::string root_;
  int64_t first_checkpoint_ns_;
  std::vector<MonitorRecord::ModelFile> files_;
  std::mutex mutex_;  // snapshots_ and reason_: the checkpoints' thread takes them too
  std::vector<MemorySnapshot> snapshots_;
  std::string reason_;
  std::thread checkpoints_;
  std::condition_variable stop_wake_;
  bool stop_ = false;
};

}  // namespace edgebench
