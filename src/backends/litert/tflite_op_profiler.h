// TensorFlow Lite's profiler interface (tflite::Profiler) implemented to time each operator of
// the measured runs on the harness clock. The interpreter calls BeginEvent/EndEvent around every
// operator (OPERATOR_INVOKE_EVENT: a builtin kernel; DELEGATE_OPERATOR_INVOKE_EVENT: a node a
// delegate took), with the node's index and subgraph as metadata; events before Begin() (the
// warmup) are ignored.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/operator_profile.h"
#include "tensorflow/lite/core/api/profiler.h"

namespace edgebench {

class TfLiteOperatorProfiler : public tflite::Profiler {
 public:
  // Starts recording (the measured phase). Called from the thread that runs the interpreter or
  // before it runs.
  void Begin() { recording_ = true; }
  // One measured run (Invoke) done.
  void CountRun() {
    if (recording_) ++runs_;
  }

  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t node, int64_t subgraph) override;
  void EndEvent(uint32_t handle) override;

  // The profile so far. A node a delegate took is on device "delegate" (Debian's TensorFlow Lite
  // is built without delegates, so none is named).
  OperatorProfile Take() const;

 private:
  struct Open {
    std::string op_type;
    bool delegated = false;
    int64_t node = 0, subgraph = 0, start_ns = 0;
  };
  struct Node {
    std::string op_type;
    bool delegated = false;
    int64_t calls = 0, total_ns = 0;
  };
  bool recording_ = false;
  int64_t runs_ = 0;
  std::vector<Open> open_;  // handle - 1
  std::vector<uint32_t> free_;
  std::map<std::pair<int64_t, int64_t>, Node> nodes_;  // (subgraph, node)
  std::vector<OperatorSpan> spans_;
  int64_t spans_dropped_ = 0;
};

}  // namespace edgebench
