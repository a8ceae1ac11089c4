#include "backends/ort/ort_profile.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/ort/ort_log.h"
#include "core/strings.h"

namespace edgebench {
namespace {

constexpr const char kKernelSuffix[] = "_kernel_time";

struct NodeEvent {
  std::string node, op_type, provider;
  int64_t ts_us = 0, dur_us = 0, tid = 0;
};

// A provider's fused subgraph is a node whose op type is its function's name, unique per
// subgraph ("DNNL_5679392362492809961_12"): summed by type, each would be a type of its own.
// Named "<prefix> subgraph" instead; the node keeps the full name.
std::string FusedSubgraphType(const std::string& op_type) {
  const size_t last = op_type.rfind('_');
  if (last == std::string::npos || last + 1 == op_type.size()) return op_type;
  const size_t middle = op_type.rfind('_', last - 1);
  if (middle == std::string::npos || middle == 0 || last - middle - 1 < 5) return op_type;
  auto digits = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (op_type[i] < '0' || op_type[i] > '9') return false;
    }
    return true;
  };
  if (!digits(middle + 1, last) || !digits(last + 1, op_type.size())) return op_type;
  return op_type.substr(0, middle) + " subgraph";
}

}  // namespace

Result<OperatorProfile> ReadOrtProfile(std::istream& in, int64_t skip_runs, int64_t start_ns) {
  std::vector<int64_t> run_starts_us;
  std::vector<NodeEvent> nodes;
  int64_t events = 0, unreadable = 0;
  for (std::string line; std::getline(in, line);) {
    // "[", "{...},", "{...}", "]": one event per line.
    while (!line.empty() && (line.back() == ',' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const size_t open = line.find('{');
    if (open == std::string::npos) continue;
    const nlohmann::json event = nlohmann::json::parse(line.begin() + static_cast<long>(open), line.end(),
                                                       nullptr, /*allow_exceptions=*/false);
    if (!event.is_object() || !event.contains("ts") || !event.contains("name")) {
      ++unreadable;
      continue;
    }
    ++events;
    const std::string cat = event.value("cat", "");
    const std::string name = event["name"].is_string() ? event["name"].get<std::string>() : "";
    const int64_t ts = event["ts"].is_number() ? event["ts"].get<int64_t>() : 0;
    if (cat == "Session" && name == "model_run") {
      run_starts_us.push_back(ts);
    } else if (cat == "Node" && EndsWith(name, kKernelSuffix)) {
      NodeEvent node;
      node.node = name.substr(0, name.size() - (sizeof(kKernelSuffix) - 1));
      node.ts_us = ts;
      node.dur_us = event.value("dur", int64_t{0});
      node.tid = event.value("tid", int64_t{0});
      if (event.contains("args") && event["args"].is_object()) {
        node.op_type = FusedSubgraphType(event["args"].value("op_name", ""));
        node.provider = event["args"].value("provider", "");
      }
      nodes.push_back(std::move(node));
    }
  }
  if (events == 0) {
    return Status::Error("ONNX Runtime's profile holds no events" +
                         (unreadable ? " (" + std::to_string(unreadable) + " unreadable lines)" : std::string()));
  }
  OperatorProfile profile;
  profile.source = "ONNX Runtime's profiler (SessionOptions::EnableProfiling)";
  std::sort(run_starts_us.begin(), run_starts_us.end());
  if (static_cast<int64_t>(run_starts_us.size()) <= skip_runs) {
    profile.notes.push_back("ONNX Runtime's profile ends before the measured runs (" +
                            std::to_string(run_starts_us.size()) + " runs recorded, " +
                            std::to_string(skip_runs) + " of them warmup)");
    return profile;
  }
  const int64_t cutoff_us = run_starts_us[static_cast<size_t>(skip_runs)];
  profile.runs = static_cast<int64_t>(run_starts_us.size()) - skip_runs;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  std::sort(nodes.begin(), nodes.end(), [](const NodeEvent& a, const NodeEvent& b) { return a.ts_us < b.ts_us; });
  for (const NodeEvent& n : nodes) {
    if (n.ts_us < cutoff_us) continue;
    const std::string device = n.provider.empty() ? "unknown" : OrtProviderToDevice(n.provider);
    const auto key = std::make_tuple(n.node, n.op_type, device);
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, profile.operators.size()).first;
      profile.operators.push_back({n.node, n.op_type, device, 0, 0});
    }
    OperatorTime& op = profile.operators[it->second];
    ++op.calls;
    op.total_ns += n.dur_us * 1000;
    if (profile.spans.size() < kMaxOperatorSpans) {
      profile.spans.push_back({n.node, n.op_type, device, start_ns + n.ts_us * 1000, n.dur_us * 1000, n.tid});
    } else {
      ++profile.spans_dropped;
    }
  }
  if (unreadable > 0) {
    profile.notes.push_back(std::to_string(unreadable) + " lines of ONNX Runtime's profile could not be read");
  }
  return profile;
}

}  // namespace edgebench
