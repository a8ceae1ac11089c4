#include "backends/libtorch/libtorch_profile.h"

#include <unistd.h>

#include <memory>

#include "core/clock.h"

namespace edgebench {

namespace {
// The run the calling thread is in, and how deep in operators it is (an operator's own calls to
// other operators, aten::linear's aten::addmm, are inside the top-level one's time).
struct LibTorchProfilerThreadState {
  LibTorchOperatorProfiler* profiler = nullptr;
  int depth = 0;
  int64_t next_index = 0;
};
thread_local LibTorchProfilerThreadState libtorch_profiler_thread;

struct LibTorchOperatorStart : public at::ObserverContext {
  int64_t start_ns = 0;
  int64_t index = -1;  // -1: nested in another operator
};

std::unique_ptr<at::ObserverContext> LibTorchOperatorStarted(const at::RecordFunction&) {
  LibTorchProfilerThreadState& state = libtorch_profiler_thread;
  if (state.profiler == nullptr) return nullptr;
  auto context = std::make_unique<LibTorchOperatorStart>();
  if (state.depth++ == 0) context->index = state.next_index++;
  context->start_ns = NowNs();
  return context;
}

void LibTorchOperatorEndedCallback(const at::RecordFunction& fn, at::ObserverContext* context) {
  const int64_t end_ns = NowNs();
  LibTorchProfilerThreadState& state = libtorch_profiler_thread;
  if (context == nullptr || state.profiler == nullptr) return;
  --state.depth;
  const auto* start = static_cast<const LibTorchOperatorStart*>(context);
  if (start->index >= 0) {
    state.profiler->Add(start->index, fn.name(), start->start_ns, end_ns);
  }
}

}  // namespace

LibTorchOperatorProfiler::LibTorchOperatorProfiler() {
  handle_ = at::addGlobalCallback(
      at::RecordFunctionCallback(LibTorchOperatorStarted, LibTorchOperatorEndedCallback)
          .scopes({at::RecordScope::FUNCTION}));
}

LibTorchOperatorProfiler::~LibTorchOperatorProfiler() { at::removeCallback(handle_); }

LibTorchOperatorProfiler::RunScope::RunScope(LibTorchOperatorProfiler& profiler) : profiler_(profiler) {
  if (!profiler_.recording_.load()) return;
  recorded_ = true;
  libtorch_profiler_thread = {&profiler_, 0, 0};
}

LibTorchOperatorProfiler::RunScope::~RunScope() {
  if (!recorded_) return;
  libtorch_profiler_thread = {};
  std::lock_guard<std::mutex> lock(profiler_.mutex_);
  ++profiler_.runs_;
}

void LibTorchOperatorProfiler::Add(int64_t index, const char* op_type, int64_t start_ns, int64_t end_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorTotals& op = operators_[index];
  if (op.op_type.empty()) op.op_type = op_type;
  ++op.calls;
  op.total_ns += end_ns - start_ns;
  if (spans_.size() < kMaxOperatorSpans) {
    spans_.push_back({"op " + std::to_string(index), op_type, "cpu", start_ns, end_ns - start_ns,
                      static_cast<int64_t>(gettid())});
  } else {
    ++spans_dropped_;
  }
}

OperatorProfile LibTorchOperatorProfiler::Take() {
  recording_.store(false);
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorProfile profile;
  profile.source = "ATen's RecordFunction callbacks (the observer API of torch's profiler), each "
                   "top-level operator of a forward timed on edgebench's clock";
  profile.runs = runs_;
  for (const auto& [index, op] : operators_) {
    profile.operators.push_back({"op " + std::to_string(index), op.op_type, "cpu", op.calls, op.total_ns});
  }
  profile.spans = spans_;
  profile.spans_dropped = spans_dropped_;
  profile.notes.push_back(
      "TorchScript names no nodes: 'op N' is the N-th top-level ATen operator a forward ran "
      "(the same graph node each run for a graph without data-dependent control flow); an "
      "operator's own calls to other operators are inside its time");
  return profile;
}

}  // namespace edgebench
