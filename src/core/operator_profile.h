// Per-operator times from a runtime's own profiler (--profile), over the measured runs only.
//
// A backend fills an OperatorProfile from whatever its runtime reports (ONNX Runtime's profile
// file, TensorFlow Lite's profiler events, LiteRT's profile summary); the harness merges the
// sessions' profiles and the record summarizes them by operator type and by device.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace edgebench {

// One node of the graph the runtime ran (a fused node is one node here), with its times summed
// over the profiled runs.
struct OperatorTime {
  std::string node;     // the runtime's node name; empty where it names none
  std::string op_type;  // "MatMul", "CONV_2D", "DnnlCustomOp"...
  std::string device;   // edgebench's device name: "cpu", "xnnpack", "dnnl"
  int64_t calls = 0;
  int64_t total_ns = 0;
};

// One operator execution on the harness clock, for the trace.
struct OperatorSpan {
  std::string node;
  std::string op_type;
  std::string device;
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  int64_t thread = 0;  // the runtime's thread id, where it tells
};

struct OperatorProfile {
  std::string source;  // which profiler, e.g. "ONNX Runtime's profiler"
  int64_t runs = 0;    // measured runs the times cover
  std::vector<OperatorTime> operators;
  std::vector<OperatorSpan> spans;  // at most kMaxOperatorSpans, the earliest kept
  int64_t spans_dropped = 0;
  std::vector<std::string> notes;  // what the profile does not cover, and why
};

// A record keeps this many operator executions (the first measured runs), for the trace; the
// later ones are counted, not kept.
inline constexpr size_t kMaxOperatorSpans = 5'000;

// Adds `from` to `into` (sessions of one case): the same node on the same device sums.
void MergeOperatorProfile(OperatorProfile& into, const OperatorProfile& from);

// Summed over nodes: by (op type, device), and by device; sorted by time, largest first.
struct OperatorTypeTime {
  std::string op_type;
  std::string device;
  int64_t nodes = 0;
  int64_t calls = 0;
  int64_t total_ns = 0;
};
std::vector<OperatorTypeTime> TimeByOperatorType(const OperatorProfile& profile);
std::map<std::string, int64_t> TimeByDevice(const OperatorProfile& profile);
int64_t TotalOperatorNs(const OperatorProfile& profile);

}  // namespace edgebench
