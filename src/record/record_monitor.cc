#include "record/record_monitor.h"

#include <algorithm>
#include <map>
#include <cstdio>

#include "record/busy_machine.h"
#include "record/monitor_derive.h"
#include "record/emulated_device.h"
#include "record/memory_levels.h"
#include "record/weights_residency.h"
#include "stats/tensor_roofline.h"

namespace edgebench {
namespace {

constexpr const char* kThrottlingNote = "throttling: ";
constexpr const char* kGrowthNote = "memory growth: ";
constexpr const char* kMonitorGapNote = "monitor: ";
constexpr const char* kBusyKeptNote = "kept by --allow-busy: ";
constexpr const char* kDeviceBusyNote = "device busy: ";
constexpr const char* kWeightsNote = "memory map: ";
constexpr const char* kLeakSitesNote = "leak sites: ";
constexpr size_t kMaxEventNotes = 5;

// Where a language model's requests sit on the series' axis: their timings are absolute in the
// worker and relative once stored, so both are taken relative to the first request's start (the
// series' origin is the measured phase's start mark, just before it).
int64_t FirstRequestStart(const LlmRecord& llm) {
  int64_t first_start = llm.measured.empty() ? 0 : llm.measured.front().start_ns;
  for (const LlmRequestTiming& t : llm.measured) first_start = std::min(first_start, t.start_ns);
  return first_start;
}


std::string Seconds(int64_t ns) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", static_cast<double>(ns) / 1e9);
  return buffer;
}

}  // namespace

// Work done against time on the series' axis: each measured query's completion (issue +
// latency), or each window's count where only histograms were kept, or each language-model
// request's last token.
std::vector<std::pair<int64_t, double>> QueryProgress(const Record& r) {
  std::vector<std::pair<int64_t, double>> progress;
  if (r.llm) {
    std::vector<int64_t> ends;
    const int64_t first_start = FirstRequestStart(*r.llm);
    for (const LlmRequestTiming& t : r.llm->measured) ends.push_back(t.end_ns() - first_start);
    std::sort(ends.begin(), ends.end());
    for (size_t i = 0; i < ends.size(); ++i) progress.push_back({ends[i], static_cast<double>(i + 1)});
    return progress;
  }
  if (r.measured_issue_ns.size() == r.measured_ns.size() && !r.measured_ns.empty()) {
    std::vector<int64_t> ends(r.measured_ns.size());
    for (size_t i = 0; i < ends.size(); ++i) ends[i] = r.measured_issue_ns[i] + r.measured_ns[i];
    std::sort(ends.begin(), ends.end());
    for (size_t i = 0; i < ends.size(); ++i) progress.push_back({ends[i], static_cast<double>(i + 1)});
    return progress;
  }
  if (r.load && !r.load->windows.empty()) {
    double done = 0;
    progress.push_back({0, 0});
    for (const LatencyWindow& w : r.load->windows) {
      done += static_cast<double>(w.count);
      progress.push_back({w.end_ns, done});
    }
  }
  return progress;
}

void FinishMonitor(Record& r) {
  std::erase_if(r.notes, [](const std::string& note) {
    return note.rfind(kThrottlingNote, 0) == 0 || note.rfind(kGrowthNote, 0) == 0 ||
           note.rfind(kMonitorGapNote, 0) == 0 || note.rfind(kBusyKeptNote, 0) == 0 ||
           note.rfind(kDeviceBusyNote, 0) == 0 || note.rfind(kWeightsNote, 0) == 0 ||
           note.rfind(kLeakSitesNote, 0) == 0;
  });
  if (!r.monitor) return;
  MonitorRecord& m = *r.monitor;
  MonitorContext context;
  context.window_ns = r.effective_settings.window_ms * 1'000'000;
  context.max_growth_mb = m.settings.max_growth_mb;
  if (r.operator_profile) context.profiler = r.operator_profile->source.empty() ? "the runtime's profiler" : r.operator_profile->source;
  if (r.llm) {
    context.measured_wall_ns = r.llm->summary.wall_ns;
    context.queries = static_cast<int64_t>(r.llm->measured.size());
    int64_t tokens = 0;
    for (const LlmRequestTiming& t : r.llm->measured) tokens += t.generated_tokens();
    context.tokens = tokens;
    const int64_t first_start = FirstRequestStart(*r.llm);
    for (const LlmRequestTiming& t : r.llm->measured) {
      context.llm_phases.push_back({t.start_ns - first_start, t.first_token_ns - first_start, t.end_ns() - first_start,
                                    t.prompt_tokens, t.generated_tokens() - 1});
    }
  } else {
    context.measured_wall_ns = r.measured_wall_ns;
    context.queries = r.summary.count;
    if (r.load) {
      for (const LatencyWindow& w : r.load->windows) context.windows.push_back({w.start_ns, w.end_ns});
    }
  }
  context.progress = QueryProgress(r);
  m.derived = DeriveMonitor(m.series, context);
  m.derived.weights = DeriveWeightsResidency(m.memory_map, m.model_files);
  if (m.settings.memory_map) {
    // llama.cpp's own accounting of what it put on each device ("buffers.Vulkan0").
    std::map<std::string, std::string> device_buffers;
    if (r.llm) {
      for (const auto& [key, value] : r.llm->session.environment) {
        if (key.rfind("buffers.", 0) == 0 && key.rfind("buffers.CPU", 0) != 0) device_buffers[key.substr(8)] = value;
      }
    }
    m.derived.memory_levels = DeriveMemoryLevels(m, r.backend + ":" + r.device, EmulatedDeviceOf(r),
                                                 context.measured_wall_ns, device_buffers);
  }
  if (m.leak_sites) DeriveLeakSites(*m.leak_sites, static_cast<double>(context.queries), m.settings.max_growth_mb);
  m.derived.busy = CheckBusyMachine(m.series, context.measured_wall_ns, TargetThreads(r.effective_target), m.settings);
  if (r.status != CaseStatus::kOk) return;  // a failed case's notes say why it failed
  if (!m.derived.busy.reason.empty() && m.derived.busy.kept) r.notes.push_back(kBusyKeptNote + m.derived.busy.reason);
  const auto& events = m.derived.throttling;
  for (size_t i = 0; i < events.size() && i < kMaxEventNotes; ++i) {
    r.notes.push_back(kThrottlingNote + events[i].detail + " (" + events[i].kind + ", " + Seconds(events[i].start_ns) +
                      " to " + Seconds(events[i].end_ns) + " into the measured phase)");
  }
  if (events.size() > kMaxEventNotes) {
    r.notes.push_back(kThrottlingNote + std::to_string(events.size() - kMaxEventNotes) +
                      " more events in monitor.derived.throttling");
  }
  for (const DeviceBusyShare& b : m.derived.device_busy) {
    char figures[96];
    std::snprintf(figures, sizeof figures, " %.0f%% of the measured phase on average, at most %.0f%% (%d samples)",
                  b.mean_percent, b.max_percent, b.samples);
    r.notes.push_back(kDeviceBusyNote + b.label + " (" + b.channel + ")" + figures);
  }
  for (const WeightsResidency& w : m.derived.weights) {
    const size_t slash = w.file.rfind('/');
    r.notes.push_back(kWeightsNote + (slash == std::string::npos ? w.file : w.file.substr(slash + 1)) + ": " +
                      w.explanation);
  }
  if (!m.memory_map_reason.empty()) r.notes.push_back(kWeightsNote + m.memory_map_reason);
  for (const MemoryLevel& l : m.derived.memory_levels) {
    if (l.level != "system") r.notes.push_back(kWeightsNote + l.level + " memory: " + (l.observed.empty() ? l.reason : l.observed));
  }
  if (m.leak_sites) r.notes.push_back(kLeakSitesNote + m.leak_sites->explanation);
  if (m.derived.memory.leak) r.notes.push_back(kGrowthNote + m.derived.memory.explanation.substr(15));
  if (m.derived.memory.profiler_growth) r.notes.push_back(kGrowthNote + m.derived.memory.explanation);
  for (const ChannelFailure& f : m.series.failures) {
    if (f.channel < m.series.channels.size() && f.t_ns >= 0 && f.t_ns <= context.measured_wall_ns) {
      r.notes.push_back(kMonitorGapNote + m.series.channels[f.channel].id + " stopped reading " + Seconds(f.t_ns) +
                        " into the measured phase: " + f.error);
    }
  }
}

void JudgeMonitor(const Record& r, std::vector<std::string>& reasons) {
  if (!r.monitor || r.status != CaseStatus::kOk) return;
  if (r.monitor->settings.leak_sites) {
    reasons.push_back("measured under heaptrack (--leak-sites), which traces every allocation: its latencies are not "
                      "the model's (run without --leak-sites to measure them)");
  }
  const BusyCheck& busy = r.monitor->derived.busy;
  if (!busy.reason.empty() && !busy.kept) reasons.push_back(busy.reason + " (--allow-busy keeps such a run, labelled)");
}

}  // namespace edgebench
