#include "record/profile_json.h"
#include "core/strings.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace edgebench {
namespace {

using json = nlohmann::json;

double Share(int64_t part, int64_t whole) {
  return whole > 0 ? std::round(1e4 * static_cast<double>(part) / static_cast<double>(whole)) / 1e4 : 0.0;
}

}  // namespace

json OperatorProfileToJson(const std::optional<OperatorProfile>& profile, const std::string& unavailable,
                           int64_t measured_ns) {
  if (!profile) return {{"unavailable", unavailable}};
  const OperatorProfile& p = *profile;
  const int64_t total = TotalOperatorNs(p);
  json by_device = json::object();
  for (const auto& [device, ns] : TimeByDevice(p)) by_device[device] = {{"ns", ns}, {"share", Share(ns, total)}};
  json by_type = json::array();
  for (const OperatorTypeTime& t : TimeByOperatorType(p)) {
    by_type.push_back({{"op_type", t.op_type},
                       {"device", t.device},
                       {"nodes", t.nodes},
                       {"calls", t.calls},
                       {"total_ns", t.total_ns},
                       {"share", Share(t.total_ns, total)}});
  }
  json nodes = json::array();
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  for (const OperatorTime& op : p.operators) {
    index[{op.node, op.op_type, op.device}] = nodes.size();
    nodes.push_back({{"node", op.node}, {"op_type", op.op_type}, {"device", op.device}, {"calls", op.calls},
                     {"total_ns", op.total_ns}});
  }
  // The first measured operator executions, as columns indexing `nodes`.
  json span_node = json::array(), span_start = json::array(), span_duration = json::array(),
       span_thread = json::array();
  int64_t unmatched = 0;
  for (const OperatorSpan& s : p.spans) {
    const auto it = index.find({s.node, s.op_type, s.device});
    if (it == index.end()) {
      ++unmatched;
      continue;
    }
    span_node.push_back(it->second);
    span_start.push_back(s.start_ns);
    span_duration.push_back(s.duration_ns);
    span_thread.push_back(s.thread);
  }
  return {{"source", p.source},
          {"runs", p.runs},
          {"operator_ns", total},
          {"operator_ns_per_run", p.runs > 0 ? json(total / p.runs) : json(nullptr)},
          // Operators' time against the measured queries' latencies: below 1 where the runtime
          // spends time between operators (or runs them in parallel: then above).
          {"share_of_measured_ns", measured_ns > 0 ? json(Share(total, measured_ns)) : json(nullptr)},
          {"by_device", by_device},
          {"by_op_type", by_type},
          {"nodes", nodes},
          {"spans",
           {{"node", span_node},
            {"start_ns", span_start},
            {"duration_ns", span_duration},
            {"thread", span_thread},
            {"dropped", p.spans_dropped + unmatched}}},
          {"notes", p.notes}};
}

void OperatorProfileFromJson(const json& j, std::optional<OperatorProfile>& profile, std::string& unavailable) {
  if (j.contains("unavailable")) {
    profile.reset();
    unavailable = j.at("unavailable").get<std::string>();
    return;
  }
  OperatorProfile p;
  p.source = j.at("source").get<std::string>();
  p.runs = j.at("runs").get<int64_t>();
  for (const json& n : j.at("nodes")) {
    p.operators.push_back({n.at("node").get<std::string>(), n.at("op_type").get<std::string>(),
                           n.at("device").get<std::string>(), n.at("calls").get<int64_t>(),
                           n.at("total_ns").get<int64_t>()});
  }
  const json& spans = j.at("spans");
  const json& node = spans.at("node");
  const json& start = spans.at("start_ns");
  const json& duration = spans.at("duration_ns");
  const json& thread = spans.at("thread");
  if (start.size() != node.size() || duration.size() != node.size() || thread.size() != node.size()) {
    throw json::other_error::create(501, "profile.spans: columns of different lengths", &j);
  }
  for (size_t i = 0; i < node.size(); ++i) {
    const size_t k = node[i].get<size_t>();
    if (k >= p.operators.size()) {
      throw json::other_error::create(501, "profile.spans.node: index beyond the nodes", &j);
    }
    const OperatorTime& op = p.operators[k];
    p.spans.push_back({op.node, op.op_type, op.device, start[i].get<int64_t>(), duration[i].get<int64_t>(),
                       thread[i].get<int64_t>()});
  }
  p.spans_dropped = spans.at("dropped").get<int64_t>();
  p.notes = j.at("notes").get<std::vector<std::string>>();
  profile = std::move(p);
  unavailable.clear();
}

std::string TopOperatorsText(const OperatorProfile& profile, int count) {
  const int64_t total = TotalOperatorNs(profile);
  if (total <= 0) return "-";
  std::string text;
  int shown = 0;
  for (const OperatorTypeTime& t : TimeByOperatorType(profile)) {
    if (shown == count) break;
    const std::string share = " " + FormatPercent(static_cast<double>(t.total_ns) / static_cast<double>(total), "%.0f");
    if (!text.empty()) text += ", ";
    text += t.op_type + (t.device == "cpu" ? "" : "@" + t.device) + share;
    ++shown;
  }
  return text;
}

}  // namespace edgebench
