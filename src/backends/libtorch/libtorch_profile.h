// --profile for LibTorch: each top-level ATen operator of a measured forward, timed on the
// harness clock from ATen's RecordFunction callbacks (the observer API torch's autograd profiler
// is built on). Why not torch::autograd::profiler itself: its callbacks are thread-local to the
// thread that enables it, and edgebench's measured runs may come from other threads than the one
// that starts the measured phase; RecordFunction's global callbacks see every thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <ATen/record_function.h>

#include "core/operator_profile.h"

namespace edgebench {

class LibTorchOperatorProfiler {
 public:
  // Adds the global callback; it is removed when the profiler is destroyed.
  LibTorchOperatorProfiler();
  ~LibTorchOperatorProfiler();
  LibTorchOperatorProfiler(const LibTorchOperatorProfiler&) = delete;
  LibTorchOperatorProfiler& operator=(const LibTorchOperatorProfiler&) = delete;

  // The measured phase starts: runs from now on are recorded.
  void Begin() { recording_.store(true); }

  // Marks the calling thread as running one forward of this profiler's session, for its
  // lifetime: operators the thread runs meanwhile belong to that run.
  class RunScope {
   public:
    explicit RunScope(LibTorchOperatorProfiler& profiler);
    ~RunScope();
    RunScope(const RunScope&) = delete;
    RunScope& operator=(const RunScope&) = delete;

   private:
    LibTorchOperatorProfiler& profiler_;
    bool recorded_ = false;
  };

  OperatorProfile Take();

  // One top-level operator of a recorded run ended (called by the RecordFunction callback).
  void Add(int64_t index, const char* op_type, int64_t start_ns, int64_t end_ns);

 private:
  struct OperatorTotals {
    std::string op_type;
    int64_t calls = 0, total_ns = 0;
  };

  at::CallbackHandle handle_ = 0;
  std::atomic<bool> recording_{false};
  std::mutex mutex_;
  int64_t runs_ = 0;
  std::map<int64_t, OperatorTotals> operators_;  // the run's n-th top-level operator
  std::vector<OperatorSpan> spans_;
  int64_t spans_dropped_ = 0;
};

}  // namespace edgebench
