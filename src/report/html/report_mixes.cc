#include "report/html/report_mixes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/strings.h"
#include "metrics/mix_interference.h"
#include "report/html/device_series.h"

namespace edgebench {
namespace {

using nlohmann::json;

double Rounded(double value, double unit) { return std::round(value / unit) * unit; }
json OrNull(const std::optional<double>& v, double unit) { return v && std::isfinite(*v) ? json(Rounded(*v, unit)) : json(nullptr); }

// Seconds from the phase's start of a steady-clock moment.
double SecondsFrom(int64_t base_ns, int64_t t_ns) { return Rounded(static_cast<double>(t_ns - base_ns) / 1e9, 1e-4); }

// The records of one invocation of one mix.
struct MixRun {
  std::string mix, run;
  std::vector<const Record*> records;
};

std::vector<MixRun> GroupRuns(const std::vector<Record>& records) {
  std::vector<MixRun> runs;
  for (const Record& r : records) {
    if (!r.mix) continue;
    auto it = std::find_if(runs.begin(), runs.end(),
                           [&](const MixRun& m) { return m.mix == r.mix->mix && m.run == r.mix->run; });
    if (it == runs.end()) it = runs.insert(runs.end(), MixRun{r.mix->mix, r.mix->run, {}});
    it->records.push_back(&r);
  }
  return runs;
}

// At most kMaxMixTimelinePoints [t_s, ms]: every point, or each group's slowest.
json TimelinePoints(const std::vector<std::pair<int64_t, int64_t>>& arrivals, int64_t base_ns) {
  json points = json::array();
  const size_t n = arrivals.size();
  const size_t group = std::max<size_t>(1, (n + kMaxMixTimelinePoints - 1) / kMaxMixTimelinePoints);
  for (size_t start = 0; start < n; start += group) {
    const auto slowest = std::max_element(arrivals.begin() + static_cast<std::ptrdiff_t>(start),
                                          arrivals.begin() + static_cast<std::ptrdiff_t>(std::min(n, start + group)),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
    points.push_back({SecondsFrom(base_ns, slowest->first), Rounded(static_cast<double>(slowest->second) / 1e6, 1e-4)});
  }
  return points;
}

// The series of `wanted` from a monitor, thinned, on the phase's time axis (seconds from
// `base_ns`), with their names.
json SeriesOnTimeline(const MonitorSeries& s, int64_t base_ns, const std::vector<ScaledSeries>& wanted) {
  json out = SampledSeries(s, std::numeric_limits<int64_t>::min(), wanted, kMaxMixTimelinePoints, s.origin_ns - base_ns);
  out["series"] = json::array();
  for (const ScaledSeries& one : wanted) out["series"].push_back(one.name);
  return out;
}

json InterferenceRows(const std::vector<MixInterference>& rows) {
  json out = json::array();
  for (const MixInterference& row : rows) {
    json objectives = json::array();
    for (const MixObjectiveResult& o : row.objectives) {
      objectives.push_back({{"text", o.objective.text}, {"value", OrNull(o.value, 1e-4)}, {"met", o.met}});
    }
    out.push_back({{"workload", row.workload},
                   {"metric", row.metric},
                   {"alone", OrNull(row.alone, 1e-4)},
                   {"mixed", OrNull(row.mixed, 1e-4)},
                   {"ratio", OrNull(row.ratio, 1e-3)},
                   {"ratio_low", OrNull(row.ratio_low, 1e-3)},
                   {"ratio_high", OrNull(row.ratio_high, 1e-3)},
                   {"dropped_alone", OrNull(row.dropped_alone, 1e-4)},
                   {"dropped_mixed", OrNull(row.dropped_mixed, 1e-4)},
                   {"mixed_status", row.mixed_status},
                   {"mixed_valid", row.mixed_valid},
                   {"mixed_samples", row.mixed_samples},
                   {"mixed_samples_total", row.mixed_samples_total},
                   {"rounds", row.rounds},
                   {"objectives", objectives},
                   {"objectives_met", row.objectives_met}});
  }
  return out;
}

// One round's mixed phase on its own time axis: null where its records kept no moment to lay
// them on one.
json RoundTimeline(const std::vector<const Record*>& mixed, const CaseLabels& labels) {
  json section = json::object();
  // The phase's start as the mix kept it, or else the earliest measured start among its records.
  int64_t base = std::numeric_limits<int64_t>::max();
  for (const Record* r : mixed) {
    if (r->mix->phase_start_ns != 0) base = std::min(base, r->mix->phase_start_ns);
  }
  if (base == std::numeric_limits<int64_t>::max()) {
    for (const Record* r : mixed) {
      const auto arrivals = MixArrivals(*r);
      if (!arrivals.empty()) base = std::min(base, arrivals.front().first);
    }
  }
  if (base == std::numeric_limits<int64_t>::max()) return nullptr;  // nothing to lay on a time axis
  double end_s = 0;
  json lanes = json::array();
  const Record* machine_source = nullptr;
  // isolation: together: one process's series for all its workloads, drawn once.
  std::vector<std::string> shared;
  for (const Record* r : mixed) {
    if (r->mix->isolation == "together") shared.push_back(r->mix->workload);
  }
  bool shared_drawn = false;
  for (const Record* r : mixed) {
    const auto arrivals = MixArrivals(*r);
    json lane = {{"name", r->mix->workload},
                 {"label", labels(*r)},
                 {"kind", r->llm ? "llm" : "load"},
                 {"metric", r->llm ? "time to first token (ms)" : "latency (ms)"},
                 {"status", CaseStatusName(r->status)},
                 {"valid", r->valid},
                 {"points", TimelinePoints(arrivals, base)},
                 {"grouped", arrivals.size() > kMaxMixTimelinePoints}};
    if (r->mix->exit_code) lane["exit_code"] = *r->mix->exit_code;
    if (r->mix->process_start_ns != 0) lane["started_s"] = SecondsFrom(base, r->mix->process_start_ns);
    if (r->mix->process_end_ns != 0) {
      lane["ended_s"] = SecondsFrom(base, r->mix->process_end_ns);
      end_s = std::max(end_s, lane["ended_s"].get<double>());
    }
    if (!arrivals.empty()) end_s = std::max(end_s, SecondsFrom(base, arrivals.back().first + arrivals.back().second));
    const bool in_shared = r->mix->isolation == "together";
    if (in_shared) lane["shared_process"] = true;
    if (r->monitor && !r->monitor->series.t_ns.empty() && !(in_shared && shared_drawn)) {
      const MonitorSeries& s = r->monitor->series;
      if (in_shared) {
        lane["process_name"] = "shared process (" + Join(shared, ", ") + ")";
        shared_drawn = true;
      }
      lane["cpu"] = SeriesOnTimeline(s, base, {{"process_cpu_pct", Combine(s, ChannelKind::kProcessCpu, "sum"), 1},
                                                {"rss_mb", Combine(s, ChannelKind::kRss, "sum"), 1.0 / (1024 * 1024)}});
      if (!machine_source && HasKind(s, ChannelKind::kCpuUtil)) machine_source = r;
    }
    lanes.push_back(lane);
  }
  section["workloads"] = lanes;
  if (const auto overlap = MixOverlap(mixed)) {
    section["overlap_from_s"] = SecondsFrom(base, overlap->start_ns);
    section["overlap_to_s"] = SecondsFrom(base, std::max(overlap->start_ns, overlap->end_ns));
  }
  section["end_s"] = Rounded(end_s, 1e-3);
  // The machine as the mix read it once over the phase; else as the first worker that read the
  // machine's CPU saw it (records before the mix read it).
  const MonitorSeries* machine_series = nullptr;
  std::string source;
  for (const Record* r : mixed) {
    if (r->mix->machine && !r->mix->machine->series.t_ns.empty()) {
      machine_series = &r->mix->machine->series;
      source = "the mix";
      break;
    }
  }
  if (!machine_series && machine_source) {
    machine_series = &machine_source->monitor->series;
    source = machine_source->mix->workload;
  }
  if (machine_series) {
    const MonitorSeries& s = *machine_series;
    std::vector<ScaledSeries> wanted = {{"cpu_util_pct", Combine(s, ChannelKind::kCpuUtil, "mean"), 1}};
    for (ScaledSeries& quantity : DeviceQuantities(s)) wanted.push_back(std::move(quantity));
    json machine = SeriesOnTimeline(s, base, wanted);
    machine["source"] = source;
    section["machine"] = machine;
  }
  return section;
}

json RunSection(const MixRun& run, const CaseLabels& labels) {
  std::vector<MixWorkloadObjectives> workloads;
  std::map<int, std::vector<const Record*>> mixed_by_round;
  for (const Record* r : run.records) {
    auto it = std::find_if(workloads.begin(), workloads.end(),
                           [&](const MixWorkloadObjectives& w) { return w.name == r->mix->workload; });
    if (it == workloads.end()) it = workloads.insert(workloads.end(), {r->mix->workload, r->mix->objectives});
    if (r->mix->phase == "mixed") {
      it->objectives = r->mix->objectives;  // judged on the mixed record
      mixed_by_round[r->mix->round].push_back(r);
    }
  }
  json rounds = json::array();
  for (const auto& [round, mixed] : mixed_by_round) {
    json timeline = RoundTimeline(mixed, labels);
    if (timeline.is_null()) continue;
    timeline["round"] = round;
    rounds.push_back(timeline);
  }
  return {{"mix", run.mix},
          {"run", run.run},
          {"rounds", rounds},
          {"interference", InterferenceRows(JudgeMixRecords(workloads, run.records))}};
}

}  // namespace

json MixesSection(const std::vector<Record>& records, const CaseLabels& labels) {
  json runs = json::array();
  for (const MixRun& run : GroupRuns(records)) runs.push_back(RunSection(run, labels));
  if (runs.empty()) return nullptr;
  return {{"runs", runs}};
}

}  // namespace edgebench
