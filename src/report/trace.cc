#include "report/trace.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>

#include "core/file_replace.h"
#include "monitor/sensor.h"

namespace edgebench {

using nlohmann::json;

namespace {

double Us(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

std::string CaseName(const Record& r) {
  return r.model + " on " + r.requested_target + " (" + r.scenario + ", " + CaseStatusName(r.status) + ")";
}

json Metadata(const char* what, int pid, int tid, const std::string& name) {
  json e = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
  if (tid >= 0) e["tid"] = tid;
  return e;
}

// Track ids within a case's process.
constexpr int kPhaseTid = 0;    // stages and phases
constexpr int kDeviceTid = 1;   // throttling events
constexpr int kWarmupTid = 2;   // warm-up queries
constexpr int kStreamTid0 = 3;  // measured queries of stream 0, then 1, ...
constexpr int kOperatorTid0 = 1000;  // --profile: operators, one track per runtime thread

// Where the warm-up phase starts on the measured phase's axis (ns, negative): the monitor's
// mark when there is one, else just before the measured phase (the warm-up's own span).
int64_t WarmupStart(const Record& r) {
  if (r.monitor) {
    for (const MonitorMark& m : r.monitor->series.marks) {
      if (m.name == "warmup" && m.event == "start") return m.t_ns;
    }
  }
  int64_t span = 0;
  for (size_t i = 0; i < r.warmup_ns.size(); ++i) {
    const int64_t issue = i < r.warmup_issue_ns.size() ? r.warmup_issue_ns[i] : 0;
    span = std::max(span, issue + r.warmup_ns[i]);
  }
  return -span;
}

// A counter track's value in the unit it is shown in.
struct CounterGroup {
  const char* name;
  double scale;  // channel unit -> shown unit
};

std::optional<CounterGroup> CounterOf(ChannelKind kind) {
  switch (kind) {
    case ChannelKind::kRss:
    case ChannelKind::kRssPeak:
    case ChannelKind::kMemAvailable:
    case ChannelKind::kDeviceMemory: return CounterGroup{"memory (MiB)", 1.0 / (1024 * 1024)};
    case ChannelKind::kCpuUtil:
    case ChannelKind::kProcessCpu: return CounterGroup{"CPU (%)", 1.0};
    case ChannelKind::kFrequency: return CounterGroup{"frequency (MHz)", 1.0 / 1000};
    case ChannelKind::kDeviceBusy: return CounterGroup{"device busy (%)", 1.0};
    case ChannelKind::kTemperature: return CounterGroup{"temperature (C)", 1.0 / 1000};
    case ChannelKind::kPower: return CounterGroup{"power (W)", 1e-6};
    case ChannelKind::kCurrent: return CounterGroup{"current (mA)", 1.0};
    case ChannelKind::kVoltage: return CounterGroup{"voltage (mV)", 1.0};
    default: return std::nullopt;  // counters (energy, throttle counts, bits): not a level
  }
}

class CaseTrace {
 public:
  CaseTrace(const Record& r, int pid, json& events) : r_(r), pid_(pid), events_(events) {}

  void Write() {
    offset_ = -Earliest();
    events_.push_back(Metadata("process_name", pid_, -1, CaseName(r_)));
    events_.push_back(Metadata("thread_name", pid_, kPhaseTid, "phases"));
    Queries();
    PipelineStages();
    LanguageModel();
    Operators();
    Monitor();
  }

 private:
  // The earliest event on the measured phase's axis, so that the case starts at 0.
  int64_t Earliest() const {
    int64_t earliest = std::min<int64_t>(0, WarmupStart(r_));
    if (r_.monitor) {
      for (int64_t t : r_.monitor->series.t_ns) earliest = std::min(earliest, t);
      for (const MonitorMark& m : r_.monitor->series.marks) earliest = std::min(earliest, m.t_ns);
    }
    return earliest;
  }

  double Ts(int64_t ns) const { return Us(ns + offset_); }

  void Span(const std::string& name, const char* category, int tid, int64_t start_ns, int64_t dur_ns,
            json args = json::object()) {
    json e = {{"name", name}, {"cat", category}, {"ph", "X"}, {"ts", Ts(start_ns)},
              {"dur", Us(std::max<int64_t>(dur_ns, 0))}, {"pid", pid_}, {"tid", tid}};
    if (!args.empty()) e["args"] = std::move(args);
    events_.push_back(std::move(e));
  }

  void Queries() {
    size_t kept = 0, left_out = 0;
    const int64_t warmup_start = WarmupStart(r_);
    if (!r_.warmup_ns.empty()) events_.push_back(Metadata("thread_name", pid_, kWarmupTid, "warm-up"));
    for (size_t i = 0; i < r_.warmup_ns.size(); ++i) {
      if (kept++ >= kTraceMaxQueries) {
        ++left_out;
        continue;
      }
      const int64_t issue = i < r_.warmup_issue_ns.size() ? r_.warmup_issue_ns[i] : 0;
      Span("warm-up " + std::to_string(i), "warmup", kWarmupTid, warmup_start + issue, r_.warmup_ns[i]);
    }
    std::map<int32_t, bool> streams;
    const bool server = !r_.measured_service_ns.empty();
    for (size_t i = 0; i < r_.measured_ns.size(); ++i) {
      const int32_t stream = i < r_.measured_stream.size() ? r_.measured_stream[i] : 0;
      if (!streams.count(stream)) {
        streams[stream] = true;
        events_.push_back(Metadata("thread_name", pid_, kStreamTid0 + stream,
                                   (server ? "session " : "stream ") + std::to_string(stream)));
      }
      if (kept++ >= kTraceMaxQueries) {
        ++left_out;
        continue;
      }
      const int64_t issue = i < r_.measured_issue_ns.size() ? r_.measured_issue_ns[i] : 0;
      json args = json::object();
      if (server && i < r_.measured_service_ns.size()) {
        args["service_us"] = Us(r_.measured_service_ns[i]);
        args["queued_us"] = Us(r_.measured_ns[i] - r_.measured_service_ns[i]);
      }
      Span("query " + std::to_string(i), "measure", kStreamTid0 + stream, issue, r_.measured_ns[i], std::move(args));
    }
    if (left_out > 0 || r_.measured_histograms) {
      const std::string why = r_.measured_histograms
                                  ? "the run kept histograms, not raw samples, past its raw-sample cap"
                                  : std::to_string(left_out) + " queries past the trace's " +
                                        std::to_string(kTraceMaxQueries) + " left out";
      events_.push_back({{"name", "queries not shown"}, {"ph", "i"}, {"s", "p"}, {"ts", Ts(0)}, {"pid", pid_},
                         {"tid", kPhaseTid}, {"args", {{"why", why}}}});
    }
    if (r_.measured_wall_ns > 0) Span("measured phase", "phase", kPhaseTid, 0, r_.measured_wall_ns);
  }

  // A pipeline's stages inside the first measured queries of each stream, one after another
  // from the query's start (the harness's hand-off between them is nanoseconds).
  void PipelineStages() {
    if (!r_.pipeline) return;
    const PipelineRecord& p = *r_.pipeline;
    for (const PipelineQueryTimeline& q : p.timeline) {
      int64_t at = q.start_ns;
      for (size_t s = 0; s < q.stage_ns.size() && s < p.stages.size(); ++s) {
        Span(p.stages[s].name, "stage", kStreamTid0 + q.stream, at, q.stage_ns[s], {{"kind", p.stages[s].kind}});
        at += q.stage_ns[s];
      }
    }
  }

  // --profile: the first measured operator executions the record kept, on the runtime's threads.
  void Operators() {
    if (!r_.operator_profile || r_.operator_profile->spans.empty()) return;
    std::map<int64_t, int> tracks;
    for (const OperatorSpan& s : r_.operator_profile->spans) {
      auto it = tracks.find(s.thread);
      if (it == tracks.end()) {
        it = tracks.emplace(s.thread, kOperatorTid0 + static_cast<int>(tracks.size())).first;
        events_.push_back(Metadata("thread_name", pid_, it->second,
                                   "operators (runtime thread " + std::to_string(s.thread) + ")"));
      }
      Span(s.op_type, "operator", it->second, s.start_ns - r_.measured_start_ns, s.duration_ns,
           {{"node", s.node}, {"device", s.device}});
    }
    if (r_.operator_profile->spans_dropped > 0) {
      events_.push_back({{"name", "operators not shown"}, {"ph", "i"}, {"s", "p"}, {"ts", Ts(0)}, {"pid", pid_},
                         {"tid", kPhaseTid},
                         {"args", {{"why", std::to_string(r_.operator_profile->spans_dropped) +
                                               " operator executions past the record's first " +
                                               std::to_string(kMaxOperatorSpans) + " left out"}}}});
    }
  }

  void LanguageModel() {
    if (!r_.llm || r_.llm->measured.empty()) return;
    // Request times are absolute in the worker and relative to the first request once stored:
    // both are placed from the first measured request's start.
    int64_t first = r_.llm->measured.front().start_ns;
    for (const LlmRequestTiming& t : r_.llm->measured) first = std::min(first, t.start_ns);
    events_.push_back(Metadata("thread_name", pid_, kStreamTid0, "requests"));
    for (size_t i = 0; i < r_.llm->measured.size() && i < kTraceMaxQueries; ++i) {
      const LlmRequestTiming& t = r_.llm->measured[i];
      const int64_t start = t.start_ns - first;
      Span("request " + std::to_string(i), "measure", kStreamTid0, start, t.e2e_ns(),
           {{"prompt_tokens", t.prompt_tokens}, {"generated_tokens", t.generated_tokens()}});
      Span("prefill", "prefill", kStreamTid0, start, t.ttft_ns());
      Span("decode", "decode", kStreamTid0, t.first_token_ns - first, t.end_ns() - t.first_token_ns);
    }
  }

  void Monitor() {
    if (!r_.monitor) return;
    const MonitorSeries& s = r_.monitor->series;
    for (const MonitorMark& m : s.marks) {
      events_.push_back({{"name", m.name + " " + m.event}, {"ph", "i"}, {"s", "p"}, {"ts", Ts(m.t_ns)},
                         {"pid", pid_}, {"tid", kPhaseTid}});
    }
    for (size_t i = 0; i < s.t_ns.size(); ++i) {
      std::map<std::string, json> groups;
      for (size_t c = 0; c < s.channels.size() && c < s.values.size(); ++c) {
        const auto group = CounterOf(s.channels[c].kind);
        if (!group || i >= s.values[c].size() || !s.values[c][i]) continue;
        groups[group->name][s.channels[c].id] = *s.values[c][i] * group->scale;
      }
      for (auto& [name, args] : groups) {
        events_.push_back({{"name", name}, {"ph", "C"}, {"ts", Ts(s.t_ns[i])}, {"pid", pid_}, {"args", args}});
      }
    }
    if (!r_.monitor->derived.throttling.empty()) {
      events_.push_back(Metadata("thread_name", pid_, kDeviceTid, "throttling"));
    }
    for (const ThrottleEvent& e : r_.monitor->derived.throttling) {
      Span(e.kind, "throttling", kDeviceTid, e.start_ns, e.end_ns - e.start_ns,
           {{"channel", e.channel}, {"detail", e.detail}});
    }
  }

  const Record& r_;
  int pid_;
  json& events_;
  int64_t offset_ = 0;
};

}  // namespace

json TraceFromRecords(const std::vector<Record>& records) {
  json events = json::array();
  for (size_t i = 0; i < records.size(); ++i) CaseTrace(records[i], static_cast<int>(i) + 1, events).Write();
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"},
          {"otherData", {{"producer", "edgebench"}, {"cases", records.size()}}}};
}

Status WriteTrace(const std::vector<Record>& records, const std::string& path) {
  return ReplaceFileContents(path, TraceFromRecords(records).dump() + "\n");
}

}  // namespace edgebench
