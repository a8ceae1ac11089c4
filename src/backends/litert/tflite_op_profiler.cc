#include "backends/litert/tflite_op_profiler.h"

#include <unistd.h>

#include "core/clock.h"

namespace edgebench {
namespace {

std::string NodeName(int64_t subgraph, int64_t node) {
  return (subgraph == 0 ? "" : "subgraph " + std::to_string(subgraph) + " ") + "node " + std::to_string(node);
}

}  // namespace

uint32_t TfLiteOperatorProfiler::BeginEvent(const char* tag, EventType event_type, int64_t node,
                                            int64_t subgraph) {
  const bool delegated = event_type == EventType::DELEGATE_OPERATOR_INVOKE_EVENT;
  if (!recording_ || (event_type != EventType::OPERATOR_INVOKE_EVENT && !delegated)) return 0;
  Open event{tag ? tag : "?", delegated, node, subgraph, NowNs()};
  uint32_t handle;
  if (!free_.empty()) {
    handle = free_.back();
    free_.pop_back();
    open_[handle - 1] = std::move(event);
  } else {
    open_.push_back(std::move(event));
    handle = static_cast<uint32_t>(open_.size());
  }
  return handle;
}

void TfLiteOperatorProfiler::EndEvent(uint32_t handle) {
  if (handle == 0 || handle > open_.size()) return;
  const int64_t end = NowNs();
  const Open& e = open_[handle - 1];
  Node& n = nodes_[{e.subgraph, e.node}];
  n.op_type = e.op_type;
  n.delegated = e.delegated;
  ++n.calls;
  n.total_ns += end - e.start_ns;
  if (spans_.size() < kMaxOperatorSpans) {
    spans_.push_back({NodeName(e.subgraph, e.node), e.op_type, e.delegated ? "delegate" : "cpu", e.start_ns,
                      end - e.start_ns, static_cast<int64_t>(gettid())});
  } else {
    ++spans_dropped_;
  }
  free_.push_back(handle);
}

OperatorProfile TfLiteOperatorProfiler::Take() const {
  OperatorProfile profile;
  profile.source = "TensorFlow Lite's profiler interface (tflite::Profiler), timed on edgebench's clock";
  profile.runs = runs_;
  for (const auto& [key, n] : nodes_) {
    profile.operators.push_back(
        {NodeName(key.first, key.second), n.op_type, n.delegated ? "delegate" : "cpu", n.calls, n.total_ns});
  }
  profile.spans = spans_;
  profile.spans_dropped = spans_dropped_;
  return profile;
}

}  // namespace edgebench
