#include "record/record_load.h"


#include <algorithm>
#include <cstdio>

#include "record/json_numbers.h"
#include "record/summary_json.h"
#include "core/strings.h"

namespace edgebench {

using nlohmann::json;

namespace {

json WindowToJson(const LatencyWindow& w) {
  return {{"start_ns", w.start_ns}, {"end_ns", w.end_ns}, {"count", w.count}, {"p50_ns", OptionalInt(w.p50_ns)},
          {"p99_ns", OptionalInt(w.p99_ns)}, {"throughput_qps", w.throughput_qps}, {"partial", w.partial}};
}

}  // namespace

LoadRecord SummarizeLoad(const Record& r, const ScenarioRules& scenario) {
  const RunSettings& s = r.effective_settings;
  const ScenarioRecordRules& rules = scenario.rules;
  LoadRecord l;
  l.streams = scenario.streams;
  const HistogramSeries* histograms = r.measured_histograms ? &*r.measured_histograms : nullptr;
  if (histograms) l.percentile_relative_error = histograms->relative_error();
  if (l.streams > 1 && histograms) {
    for (int stream = 0; stream < l.streams; ++stream) {
      const auto index = static_cast<size_t>(stream);
      l.per_stream.push_back(index < histograms->streams.size() && index < histograms->stream_moments.size()
                                 ? SummarizeHistogram(histograms->streams[index], histograms->stream_moments[index],
                                                      r.measured_wall_ns)
                                 : Summarize({}, r.measured_wall_ns));
    }
  } else if (l.streams > 1) {
    l.per_stream = SummarizeStreams(r.measured_ns, r.measured_stream, l.streams, r.measured_wall_ns);
  }
  if (rules.server && histograms && r.measured_server) {
    l.server = SummarizeServerTotals(*r.measured_server, r.measured_wall_ns, r.not_issued);
  } else if (rules.server) {
    l.server = SummarizeServer(r.measured_issue_ns, r.measured_ns, r.measured_service_ns, r.measured_wall_ns,
                               r.not_issued);
  }
  if (rules.camera) {
    std::string why;
    l.camera = SummarizeCamera(r.measured_ns, r.measured_stream, r.frames_delivered, r.frames_dropped,
                               scenario.frame_period_ns, r.measured_wall_ns, &why);
    if (!l.camera) l.camera_unusable = why;
  }
  if (rules.throughput) {
    l.batch = !r.inputs.empty() && !r.inputs[0].shape.empty() ? r.inputs[0].shape[0] : 1;
    if (r.measured_wall_ns > 0) {
      l.samples_per_s = static_cast<double>(r.summary.count) * static_cast<double>(l.batch) * 1e9 /
                        static_cast<double>(r.measured_wall_ns);
    }
  }
  if (histograms) {
    l.windows = WindowsFromHistograms(*histograms, r.measured_wall_ns);
  } else if (r.measured_issue_ns.size() == r.measured_ns.size()) {
    l.windows = SplitIntoWindows(r.measured_issue_ns, r.measured_ns, s.window_ms * 1'000'000, r.measured_wall_ns);
  }
  l.stability = CheckStability(l.windows);
  if (rules.drift) l.drift = ComputeDrift(l.windows);
  if (s.confidence > 0 && !histograms) {  // early stopping needs the raw samples
    if (rules.server && s.p99_bound_ms > 0) {
      l.early_stopping.push_back(EarlyStoppingServer(
          r.measured_ns, static_cast<int64_t>(s.p99_bound_ms * 1e6), 0.99, s.confidence));
      l.early_stopping_percentiles.push_back(0.99);
    } else if (!rules.server) {
      std::vector<int64_t> sorted = r.measured_ns;
      std::sort(sorted.begin(), sorted.end());
      for (double p : {0.90, 0.99}) {
        l.early_stopping.push_back(EarlyStoppingPercentile(sorted, p, s.confidence));
        l.early_stopping_percentiles.push_back(p);
      }
    }
  }
  return l;
}

// The load scenarios' own rules (docs/metrics.md, "Verdict").
void JudgeLoad(const Record& r, const ScenarioRules& scenario, std::vector<std::string>& reasons) {
  const LoadRecord& l = *r.load;
  const RunSettings& s = r.effective_settings;
  if (l.server) {
    const ServerSummary& server = *l.server;
    if (server.not_issued > 0) {
      reasons.push_back(std::to_string(server.not_issued) +
                                  " scheduled queries were never issued: the run reached max_duration (" +
                                  std::to_string(s.max_duration_ms) + " ms) first");
    }
    if (server.offered_qps > 0 && server.achieved_qps < 0.98 * server.offered_qps) {
      char buffer[200];
      std::snprintf(buffer, sizeof buffer,
                    "achieved %.1f QPS, more than 2%% under the %.1f QPS offered (target %s): the "
                    "sessions did not keep up",
                    server.achieved_qps, server.offered_qps, r.scenario.c_str());
      reasons.push_back(buffer);
    }
    const auto p99 = r.summary.Percentile(0.99);
    if (s.p99_bound_ms > 0 && p99 && static_cast<double>(*p99) > s.p99_bound_ms * 1e6) {
      char buffer[160];
      std::snprintf(buffer, sizeof buffer, "p99 %.3f ms is over the bound %.3f ms (--p99-bound-ms)",
                    static_cast<double>(*p99) / 1e6, s.p99_bound_ms);
      reasons.push_back(buffer);
    } else if (s.p99_bound_ms > 0 && !p99) {
      reasons.push_back("too few queries (" + std::to_string(r.summary.count) +
                                  ") for a p99 to compare with --p99-bound-ms");
    }
  }
  if (scenario.rules.camera && !l.camera) {
    reasons.push_back("the frame counts do not fit the samples: " + l.camera_unusable);
  } else if (l.camera && r.not_issued > 0) {
    reasons.push_back(std::to_string(r.not_issued) + " frames were still waiting when the run reached max_duration (" +
                      std::to_string(s.max_duration_ms) + " ms)");
  }
  if (scenario.rules.judge_stability && l.stability.enough_windows && !l.stability.stable) {
    reasons.push_back("not stable over the last windows of " + std::to_string(s.window_ms) +
                                " ms: " + l.stability.failed_rule);
  }
  for (size_t i = 0; i < l.early_stopping.size(); ++i) {
    if (!l.early_stopping[i].supported) {
      reasons.push_back("early stopping: " + PercentileName(l.early_stopping_percentiles[i]) +
                                  " not supported at confidence " + FormatPercent(s.confidence, "%.1f") + ": " +
                                  l.early_stopping[i].reason);
    }
  }
}


json LoadToJson(const LoadRecord& l, const Record& r) {
  json j = {{"streams", l.streams}};
  if (l.percentile_relative_error > 0) {
    j["percentiles_from"] = "histograms";
    j["percentile_relative_error"] = l.percentile_relative_error;
  }
  if (!l.per_stream.empty()) {
    json streams = json::array();
    for (const LatencySummary& s : l.per_stream) streams.push_back(SummaryToJson(s));
    j["per_stream"] = streams;
  }
  if (l.server) {
    const ServerSummary& s = *l.server;
    j["server"] = {{"offered_qps", s.offered_qps},       {"achieved_qps", s.achieved_qps},
                   {"service", SummaryToJson(s.service)}, {"start_delay", SummaryToJson(s.start_delay)},
                   {"late_queries", s.late_queries},     {"late_threshold_ns", kLateStartNs},
                   {"backlog_at_end", s.backlog_at_end}, {"not_issued", s.not_issued}};
  }
  if (l.camera) {
    const CameraSummary& c = *l.camera;
    auto counts = [](const CameraStreamSummary& t) {
      return json{{"delivered", t.delivered}, {"processed", t.processed}, {"dropped", t.dropped},
                  {"late", t.late}, {"fps", t.fps}};
    };
    json streams = json::array();
    for (const CameraStreamSummary& t : c.streams) streams.push_back(counts(t));
    j["camera"] = {{"offered_fps", c.offered_fps},         {"period_ns", c.period_ns},
                   {"total", counts(c.total)},             {"dropped_fraction", c.dropped_fraction},
                   {"late_fraction", c.late_fraction},     {"slowest_stream_fps", c.slowest_stream_fps},
                   {"per_stream", streams}};
  }
  if (l.batch > 0) {
    j["batch"] = l.batch;
    j["samples_per_s"] = l.samples_per_s;
  }
  json windows = json::array();
  for (const LatencyWindow& w : l.windows) windows.push_back(WindowToJson(w));
  j["windows"] = windows;
  j["stability"] = {{"stable", l.stability.stable},
                    {"enough_windows", l.stability.enough_windows},
                    {"latency_spread", Number(l.stability.latency_spread)},
                    {"throughput_spread", Number(l.stability.throughput_spread)},
                    {"failed_rule", l.stability.failed_rule}};
  if (l.drift) {
    j["drift"] = {{"first_steady_window", l.drift->first_steady_window},
                  {"p99_ratio", OptionalNumber(l.drift->p99_ratio)},
                  {"first_window_over",
                   l.drift->first_window_over ? json(*l.drift->first_window_over) : json(nullptr)}};
  }
  if (!l.early_stopping.empty()) {
    json list = json::array();
    for (size_t i = 0; i < l.early_stopping.size(); ++i) {
      const EarlyStoppingResult& e = l.early_stopping[i];
      list.push_back({{"percentile", PercentileName(l.early_stopping_percentiles.at(i))},
                      {"supported", e.supported},
                      {"queries", e.queries},
                      {"queries_needed", e.queries_needed},
                      {"estimate_ns", OptionalInt(e.estimate_ns)},
                      {"overlatency", e.overlatency},
                      {"reason", e.reason}});
    }
    j["early_stopping"] = list;
  }
  if (r.load_inflation) {
    const Inflation& f = *r.load_inflation;
    j["inflation"] = {{"baseline_record_id", f.baseline_record_id},
                      {"baseline_p50_ns", f.baseline_p50_ns},
                      {"baseline_p99_ns", OptionalInt(f.baseline_p99_ns)},
                      {"p50_ratio", f.p50_ratio},
                      {"p99_ratio", OptionalNumber(f.p99_ratio)}};
  }
  if (r.load_peak) {
    const PeakAnswer& peak = *r.load_peak;
    json steps = json::array();
    for (const PeakStep& step : peak.steps) steps.push_back({{"qps", step.qps}, {"passed", step.passed}});
    j["peak"] = {{"peak_qps", OptionalNumber(peak.peak_qps)},
                 {"p99_bound_ms", peak.p99_bound_ms},
                 {"steps", steps},
                 {"explanation", peak.explanation}};
  }
  return j;
}

void StoredLoadFromJson(const json& j, Record& r) {
  if (j.contains("inflation") && j.at("inflation").is_object()) {
    const json& f = j.at("inflation");
    Inflation inflation;
    inflation.baseline_record_id = f.at("baseline_record_id").get<std::string>();
    inflation.baseline_p50_ns = f.at("baseline_p50_ns").get<int64_t>();
    if (!f.at("baseline_p99_ns").is_null()) inflation.baseline_p99_ns = f.at("baseline_p99_ns").get<int64_t>();
    inflation.p50_ratio = f.at("p50_ratio").get<double>();
    if (!f.at("p99_ratio").is_null()) inflation.p99_ratio = f.at("p99_ratio").get<double>();
    r.load_inflation = inflation;
  }
  if (j.contains("peak") && j.at("peak").is_object()) {
    const json& p = j.at("peak");
    PeakAnswer peak;
    if (!p.at("peak_qps").is_null()) peak.peak_qps = p.at("peak_qps").get<double>();
    peak.p99_bound_ms = p.at("p99_bound_ms").get<double>();
    for (const json& step : p.at("steps")) peak.steps.push_back({step.at("qps").get<double>(), step.at("passed").get<bool>()});
    peak.explanation = p.at("explanation").get<std::string>();
    r.load_peak = peak;
  }
}


}  // namespace edgebench
