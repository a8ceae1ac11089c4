#include "core/operator_profile.h"

#include <algorithm>
#include <tuple>

namespace edgebench {

void MergeOperatorProfile(OperatorProfile& into, const OperatorProfile& from) {
  if (into.source.empty()) into.source = from.source;
  into.runs += from.runs;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  for (size_t i = 0; i < into.operators.size(); ++i) {
    const OperatorTime& op = into.operators[i];
    index[{op.node, op.op_type, op.device}] = i;
  }
  for (const OperatorTime& op : from.operators) {
    const auto it = index.find({op.node, op.op_type, op.device});
    if (it == index.end()) {
      index[{op.node, op.op_type, op.device}] = into.operators.size();
      into.operators.push_back(op);
    } else {
      into.operators[it->second].calls += op.calls;
      into.operators[it->second].total_ns += op.total_ns;
    }
  }
  for (const OperatorSpan& span : from.spans) {
    if (into.spans.size() < kMaxOperatorSpans) {
      into.spans.push_back(span);
    } else {
      ++into.spans_dropped;
    }
  }
  into.spans_dropped += from.spans_dropped;
  for (const std::string& note : from.notes) {
    if (std::find(into.notes.begin(), into.notes.end(), note) == into.notes.end()) into.notes.push_back(note);
  }
}

std::vector<OperatorTypeTime> TimeByOperatorType(const OperatorProfile& profile) {
  std::map<std::pair<std::string, std::string>, OperatorTypeTime> by_type;
  for (const OperatorTime& op : profile.operators) {
    OperatorTypeTime& t = by_type[{op.op_type, op.device}];
    t.op_type = op.op_type;
    t.device = op.device;
    ++t.nodes;
    t.calls += op.calls;
    t.total_ns += op.total_ns;
  }
  std::vector<OperatorTypeTime> sorted;
  for (auto& [key, t] : by_type) sorted.push_back(t);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const OperatorTypeTime& a, const OperatorTypeTime& b) { return a.total_ns > b.total_ns; });
  return sorted;
}

std::map<std::string, int64_t> TimeByDevice(const OperatorProfile& profile) {
  std::map<std::string, int64_t> by_device;
  for (const OperatorTime& op : profile.operators) by_device[op.device] += op.total_ns;
  return by_device;
}

int64_t TotalOperatorNs(const OperatorProfile& profile) {
  int64_t total = 0;
  for (const OperatorTime& op : profile.operators) total += op.total_ns;
  return total;
}

}  // namespace edgebench
