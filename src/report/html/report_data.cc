#include "report/rounds_summary.h"
#include "report/html/report_data.h"
#include "report/html/report_conformance.h"
#include "report/html/report_labels.h"

#include "report/html/report_pipelines.h"
#include "report/html/report_memory_map.h"
#include "report/html/report_roofline.h"
#include "report/html/report_vlm.h"
#include "report/html/device_series.h"
#include "report/html/report_mixes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "core/strings.h"
#include "core/version.h"
#include "report/cases_on_hosts.h"
#include "metrics/metrics.h"
#include "report/shape_matrix.h"
#include "report/store.h"
#include "stats/summary.h"
#include "tune/race_records.h"
#include "tune/race_text.h"
#include "load/case_kind.h"

namespace edgebench {
namespace {

using nlohmann::json;

// Milliseconds rounded to 4 significant decimals: the page never needs nanoseconds, and short
// numbers keep a report of many cases small.
json JsonMs(int64_t ns) { return std::round(static_cast<double>(ns) / 1e2) / 1e4; }
json JsonMs(const std::optional<int64_t>& ns) { return ns ? JsonMs(*ns) : json(nullptr); }
double Round(double value, double unit) { return std::round(value / unit) * unit; }
json Finite(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }
// A metric of the registry (metrics/metrics.h) as the page shows it: ms as JsonMs, others to 0.01.
json MetricJson(std::string_view name, const Record& r) {
  const Metric* metric = FindMetric(name);
  const auto v = metric->value(r);
  return !v ? json(nullptr) : metric->unit == FlatUnit::kMilliseconds ? json(std::round(*v * 1e4) / 1e4) : Finite(Round(*v, 0.01));
}

bool ByX(const json& a, const json& b) { return a["x"].get<double>() < b["x"].get<double>(); }

double Mib(double bytes) { return bytes / (1024.0 * 1024.0); }

bool IsTensorScenario(const Record& r) {
  const CaseKind kind = CaseKindOf(r.scenario);
  return kind != CaseKind::kLanguageModel && kind != CaseKind::kAccuracy && kind != CaseKind::kAgree;
}

// ---- environment ------------------------------------------------------------------------

json EnvironmentSection(const ReportInputs& in) {
  std::map<std::string, json> hosts;  // keyed by what makes two machines or builds differ
  std::vector<std::string> order;
  for (size_t i = 0; i < in.records.size(); ++i) {
    const Environment& e = in.records[i].environment;
    const std::string key = e.host + "|" + e.hostname + "|" + e.cpu_model + "|" + e.cpu_emulation + "|" + e.os + "|" + e.kernel + "|" +
                            std::to_string(e.usable_cores) + "|" + e.edgebench_version + "|" + e.edgebench_commit;
    auto [it, added] = hosts.try_emplace(key);
    json& h = it->second;
    if (added) {
      order.push_back(key);
      h = {{"host", e.host},
           {"hostname", e.hostname},
           {"architecture", e.architecture},
           {"cpu_emulation", e.cpu_emulation},
           {"usable_cores", e.usable_cores},
           {"os", e.os},
           {"kernel", e.kernel},
           {"cpu_model", e.cpu_model},
           {"logical_cores", e.logical_cores},
           {"cpu_features", e.cpu_features},
           {"cpu_governor", e.cpu_governor},
           {"cpu_max_freq_mhz", e.cpu_max_freq_mhz},
           {"memory_total_bytes", e.memory_total_bytes},
           {"compiler", e.compiler},
           {"build_type", e.build_type},
           {"debug_build", e.debug_build},
           {"sanitizers", e.sanitizers},
           {"edgebench_version", e.edgebench_version},
           {"edgebench_commit", e.edgebench_commit},
           {"runtimes", json::object()},
           {"records", 0},
           {"stores", json::array()}};
    }
    for (const auto& [backend, version] : e.runtimes) h["runtimes"][backend] = version;
    h["records"] = h["records"].get<int>() + 1;
    const std::string& store = in.stores[in.record_store[i]].label;
    if (std::find(h["stores"].begin(), h["stores"].end(), store) == h["stores"].end()) {
      h["stores"].push_back(store);
    }
  }
  json list = json::array();
  for (const std::string& key : order) list.push_back(hosts[key]);
  return {{"hosts", list}};
}

// ---- summary ----------------------------------------------------------------------------

json SummarySection(const ReportInputs& in) {
  json rows = json::array();
  for (size_t i = 0; i < in.records.size(); ++i) {
    const Record& r = in.records[i];
    const LatencySummary& s = MainLatencySummary(r);
    json row = {{"id", r.id},
                {"store", in.stores[in.record_store[i]].label},
                {"model", r.model},
                {"variant", r.variant},
                {"target", r.requested_target},
                {"effective_target", r.effective_target},
                {"scenario", ScenarioText(r)},
                {"dims", r.dims.empty() ? "" : ShapeLabel(r.dims, {})},
                {"status", CaseStatusName(r.status)},
                {"valid", r.valid},
                {"reasons", r.invalid_reasons},
                {"p50_ms", s.count > 0 ? JsonMs(s.Percentile(0.50)) : json(nullptr)},
                {"p99_ms", s.count > 0 ? JsonMs(s.Percentile(0.99)) : json(nullptr)},
                {"throughput_qps",
                 s.count > 0 ? Finite(Round(s.throughput_qps, 0.01)) : json(nullptr)},
                {"failed_stage", r.failed_stage},
                {"error", r.error}};
    rows.push_back(row);
  }
  return {{"rows", rows}};
}

// ---- hosts side by side -----------------------------------------------------------------

// The same case on every host (a fleet's merged stores, report/cases_on_hosts.h): one row per
// case, one column per host, p50 and p99 or the status and its reason. Present only when the
// records come from two hosts or more.
json HostsSection(const ReportInputs& in) {
  std::vector<const Record*> records;
  for (const Record& r : in.records) records.push_back(&r);
  const CasesOnHosts grouped = GroupCasesOnHosts(records);
  if (grouped.hosts.size() < 2) return nullptr;
  json rows = json::array();
  for (const CasesOnHosts::Row& case_row : grouped.rows) {
    json row = {{"model", case_row.first->model},
                {"target", case_row.first->requested_target},
                {"scenario", ScenarioText(*case_row.first)},
                {"cells", json::array()}};
    for (const std::string& host : grouped.hosts) {
      const auto it = case_row.by_host.find(host);
      if (it == case_row.by_host.end()) {
        row["cells"].push_back({{"status", "absent"}});
        continue;
      }
      const Record& r = *it->second;
      const LatencySummary& summary = MainLatencySummary(r);
      json cell = {{"status", CaseStatusName(r.status)}, {"valid", r.valid}, {"error", r.error}};
      if (r.status == CaseStatus::kOk && summary.count > 0) {
        cell["p50_ms"] = JsonMs(summary.Percentile(0.50));
        cell["p99_ms"] = JsonMs(summary.Percentile(0.99));
      }
      row["cells"].push_back(cell);
    }
    rows.push_back(row);
  }
  // What each host is, from a record made there: its architecture, and whether its CPU was
  // emulated (an arm64 namespace host under qemu-user): read beside its numbers, never ranked.
  json details = json::array();
  for (const std::string& host : grouped.hosts) {
    const Record* seen = nullptr;
    for (const CasesOnHosts::Row& case_row : grouped.rows) {
      if (const auto it = case_row.by_host.find(host); it != case_row.by_host.end()) {
        seen = it->second;
        break;
      }
    }
    details.push_back({{"host", host},
                       {"architecture", seen ? seen->environment.architecture : ""},
                       {"cpu_emulation", seen ? seen->environment.cpu_emulation : ""}});
  }
  return {{"hosts", grouped.hosts}, {"host_details", details}, {"rows", rows}};
}

// ---- latency ----------------------------------------------------------------------------

// min, p25, p50, p75, p90, p99, max of the measured phase: exact from raw samples, from the
// histograms (within their relative error) for a run past the raw-sample cap.
json BoxStatistics(const Record& r) {
  const std::vector<double> ps = {0.25, 0.50, 0.75, 0.90, 0.99};
  std::vector<std::optional<int64_t>> values;
  if (!r.measured_ns.empty()) {
    std::vector<int64_t> sorted = r.measured_ns;
    std::sort(sorted.begin(), sorted.end());
    for (double p : ps) values.push_back(NearestRankPercentile(sorted, p));
  } else if (r.measured_histograms) {
    const LatencyHistogram total = r.measured_histograms->Total();
    for (double p : ps) values.push_back(total.Percentile(p));
  } else {
    return nullptr;
  }
  return {{"min", JsonMs(r.summary.min_ns)}, {"p25", JsonMs(values[0])}, {"p50", JsonMs(values[1])},
          {"p75", JsonMs(values[2])},       {"p90", JsonMs(values[3])}, {"p99", JsonMs(values[4])},
          {"max", JsonMs(r.summary.max_ns)}, {"count", r.summary.count}};
}

json LatencySection(const ReportInputs& in) {
  json cases = json::array();
  for (const Record& r : in.records) {
    if (r.status != CaseStatus::kOk || !IsTensorScenario(r) || r.summary.count == 0) continue;
    json box = BoxStatistics(r);
    if (box.is_null()) continue;
    box["label"] = in.labels(r);
    box["target"] = r.requested_target;
    box["model"] = r.model;
    box["scenario"] = r.scenario;
    cases.push_back(box);
  }
  // One chart per model (latencies of different models differ by orders of magnitude), the
  // boxes of one target together within it; models in the order the records first name them.
  std::map<std::string, size_t> model_order;
  for (const json& c : cases) model_order.emplace(c["model"].get<std::string>(), model_order.size());
  std::stable_sort(cases.begin(), cases.end(), [&](const json& a, const json& b) {
    const size_t ma = model_order[a["model"].get<std::string>()];
    const size_t mb = model_order[b["model"].get<std::string>()];
    if (ma != mb) return ma < mb;
    return a["target"].get<std::string>() < b["target"].get<std::string>();
  });
  if (cases.empty()) return nullptr;
  return {{"cases", cases}};
}

// ---- warmup -----------------------------------------------------------------------------

json WarmupSection(const ReportInputs& in) {
  json curves = json::array();
  int left_out = 0;
  std::map<std::string, size_t> per_model;  // one chart per model, each of at most the limit
  for (const Record& r : in.records) {
    if (r.status != CaseStatus::kOk || !RulesOfScenario(r.scenario).baseline || r.measured_ns.empty()) {
      continue;
    }
    if (per_model[r.model]++ >= kMaxCurvesPerChart) {
      ++left_out;
      continue;
    }
    json latency = json::array();
    const size_t warmup = r.warmup_ns.size();
    for (size_t q = 0; q < warmup + r.measured_ns.size() && q < kWarmupCurveQueries; ++q) {
      latency.push_back(JsonMs(q < warmup ? r.warmup_ns[q] : r.measured_ns[q - warmup]));
    }
    curves.push_back({{"label", in.labels(r)},
                      {"model", r.model},
                      {"warmup_queries", r.warmup_ns.size()},
                      {"total_queries", r.warmup_ns.size() + r.measured_ns.size()},
                      {"steady_p50_ms", MetricJson("p50_ms", r)},
                      {"settling_index",
                       r.settling ? json(r.settling->query_index) : json(nullptr)},
                      {"settling_ms", r.settling ? JsonMs(r.settling->time_ns) : json(nullptr)},
                      {"latency_ms", latency}});
  }
  if (curves.empty()) return nullptr;
  return {{"curves", curves}, {"left_out", left_out}};
}

// ---- load -------------------------------------------------------------------------------

std::optional<double> ServerRate(const std::string& scenario) {
  if (!StartsWith(scenario, "server:")) return std::nullopt;
  try {
    return std::stod(scenario.substr(7));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

json LoadSection(const ReportInputs& in) {
  struct Group {
    std::string model, variant, target, axis;
    std::vector<const Record*> records;
  };
  std::vector<Group> groups;
  auto group_of = [&](const Record& r, const std::string& axis) -> Group& {
    for (Group& g : groups) {
      if (g.model == r.model && g.variant == r.variant && g.target == r.requested_target &&
          g.axis == axis) {
        return g;
      }
    }
    groups.push_back({r.model, r.variant, r.requested_target, axis, {}});
    return groups.back();
  };
  for (const Record& r : in.records) {
    if (r.status != CaseStatus::kOk || r.summary.count == 0) continue;
    if (StartsWith(r.scenario, "multi-stream")) group_of(r, "streams").records.push_back(&r);
    if (StartsWith(r.scenario, "server:")) group_of(r, "rate").records.push_back(&r);
  }
  // Single-stream is the one-stream point of a streams curve that exists.
  for (Group& g : groups) {
    if (g.axis != "streams") continue;
    for (const Record& r : in.records) {
      if (r.status == CaseStatus::kOk && RulesOfScenario(r.scenario).baseline && r.model == g.model &&
          r.variant == g.variant && r.requested_target == g.target && r.summary.count > 0) {
        g.records.push_back(&r);
      }
    }
  }
  auto x_of = [](const Group& g, const Record& r) {
    if (g.axis == "streams") return r.load ? static_cast<double>(r.load->streams) : 1.0;
    if (auto rate = ServerRate(r.scenario)) return *rate;
    if (r.load && r.load->server) return r.load->server->offered_qps;
    return 1.0;
  };
  json list = json::array();
  for (Group& g : groups) {
    // A curve has one point per load: where several runs measured the same load (six
    // single-stream runs of one target), the latest is the point and the others are counted,
    // so the line does not zigzag through runs at one x.
    std::map<double, const Record*> latest;
    for (const Record* r : g.records) {
      const Record*& kept = latest[x_of(g, *r)];
      if (kept == nullptr || kept->started_at <= r->started_at) kept = r;
    }
    const size_t earlier_runs = g.records.size() - latest.size();
    g.records.clear();
    for (const auto& [x, r] : latest) g.records.push_back(r);
    json points = json::array();
    json peak = nullptr;
    double bound_ms = 0;
    for (const Record* r : g.records) {
      const double x = x_of(g, *r);
      points.push_back({{"x", x},
                        {"throughput_qps", MetricJson("throughput_qps", *r)},
                        {"p50_ms", MetricJson("p50_ms", *r)},
                        {"p99_ms", MetricJson("p99_ms", *r)},
                        {"valid", r->valid}});
      if (r->load_peak) {
        peak = r->load_peak->peak_qps ? json(*r->load_peak->peak_qps) : json(nullptr);
        bound_ms = r->load_peak->p99_bound_ms;
      }
      if (r->effective_settings.p99_bound_ms > 0) bound_ms = r->effective_settings.p99_bound_ms;
    }
    std::sort(points.begin(), points.end(), ByX);
    json group = {{"model", g.model},
                  {"variant", g.variant},
                  {"target", g.target},
                  {"axis", g.axis},
                  {"points", points}};
    if (earlier_runs > 0) group["earlier_runs"] = earlier_runs;
    if (!peak.is_null()) group["peak_qps"] = peak;
    if (bound_ms > 0) group["p99_bound_ms"] = bound_ms;
    list.push_back(group);
  }
  if (list.empty()) return nullptr;
  return {{"groups", list}};
}

// ---- soak -------------------------------------------------------------------------------

json SoakSection(const ReportInputs& in) {
  json runs = json::array();
  for (const Record& r : in.records) {
    if (r.status != CaseStatus::kOk || !StartsWith(r.scenario, "soak") || !r.load) continue;
    json windows = json::array();
    for (const LatencyWindow& w : r.load->windows) {
      windows.push_back({{"start_s", Round(static_cast<double>(w.start_ns) / 1e9, 1e-4)},
                         {"end_s", Round(static_cast<double>(w.end_ns) / 1e9, 1e-4)},
                         {"count", w.count},
                         {"p50_ms", JsonMs(w.p50_ns)},
                         {"p99_ms", JsonMs(w.p99_ns)},
                         {"throughput_qps", Finite(Round(w.throughput_qps, 0.01))},
                         {"partial", w.partial}});
    }
    json run = {{"label", in.labels(r)}, {"windows", windows}};
    if (r.load->drift && r.load->drift->p99_ratio) {
      run["p99_drift_ratio"] = Round(*r.load->drift->p99_ratio, 1e-3);
    }
    if (r.monitor && !r.monitor->series.t_ns.empty()) {
      const MonitorSeries& s = r.monitor->series;
      const std::vector<ScaledSeries> series = DeviceQuantities(s);
      if (!series.empty()) {
        json device = SampledSeries(s, 0, series, kMaxSeriesPoints);
        json names = json::array();
        for (const ScaledSeries& one : series) names.push_back(one.name);
        device["series"] = names;
        run["device"] = device;
      }
      json events = json::array();
      for (const ThrottleEvent& e : r.monitor->derived.throttling) {
        events.push_back({{"kind", e.kind},
                          {"channel", e.channel},
                          {"start_s", Round(static_cast<double>(e.start_ns) / 1e9, 1e-4)},
                          {"end_s", Round(static_cast<double>(e.end_ns) / 1e9, 1e-4)},
                          {"detail", e.detail}});
      }
      run["throttling"] = events;
    }
    runs.push_back(run);
  }
  if (runs.empty()) return nullptr;
  return {{"runs", runs}};
}

// ---- memory -----------------------------------------------------------------------------

json MemorySection(const ReportInputs& in) {
  json runs = json::array();
  int left_out = 0;
  for (const Record& r : in.records) {
    if (!r.monitor || r.monitor->series.t_ns.empty()) continue;
    const MonitorSeries& s = r.monitor->series;
    if (!HasKind(s, ChannelKind::kRss)) continue;
    if (runs.size() >= kMaxCurvesPerChart) {
      ++left_out;
      continue;
    }
    json run = SampledSeries(s, std::numeric_limits<int64_t>::min(),
                             {{"rss_mb", Combine(s, ChannelKind::kRss, "sum"), Mib(1)}}, kMaxSeriesPoints);
    run["label"] = in.labels(r);
    const MemoryResult& m = r.monitor->derived.memory;
    run["verdict"] = m.explanation;
    run["leak"] = m.leak;
    if (m.peak_rss_bytes) run["peak_mb"] = Round(Mib(static_cast<double>(*m.peak_rss_bytes)), 0.01);
    runs.push_back(run);
  }
  if (runs.empty()) return nullptr;
  json section = {{"runs", runs}, {"left_out", left_out}};
  // --memory-map's snapshots and --leak-sites' sites, where the cases have them.
  json maps = MemoryMapSection(in.records, in.labels);
  if (!maps.is_null()) section["map"] = std::move(maps);
  return section;
}

// ---- placement --------------------------------------------------------------------------

json PlacementSection(const ReportInputs& in) {
  json targets = json::array();
  std::set<std::string> seen;
  for (const Record& r : in.records) {
    const Placement& p = r.placement;
    if (r.status != CaseStatus::kOk || !p.known) continue;
    const std::string label = ModelOnTarget(r);
    if (!seen.insert(label).second) continue;
    const bool model_view = p.model_nodes && !p.original_nodes_by_device.empty();
    const auto& counts = model_view ? p.original_nodes_by_device : p.nodes_by_device;
    int total = 0;
    for (const auto& [device, n] : counts) total += n;
    if (total == 0) continue;
    json entry = {{"label", label},
                  {"basis", model_view ? "the model's nodes" : "executed nodes"},
                  {"total", total},
                  {"nodes", counts},
                  {"cpu_op_types", p.cpu_op_types}};
    if (auto fallback = CpuFallbackText(p, r.device)) entry["fallback"] = *fallback;
    targets.push_back(entry);
  }
  if (targets.empty()) return nullptr;
  return {{"targets", targets}};
}

// ---- shapes -----------------------------------------------------------------------------

json ShapesSection(const ReportInputs& in) {
  struct Sweep {
    std::string model;
    std::vector<const Record*> records;
  };
  std::vector<Sweep> sweeps;
  for (const Record& r : in.records) {
    if (r.dims.empty() || !IsTensorScenario(r)) continue;
    const std::string model = r.model + (r.variant.empty() ? "" : "?" + r.variant);
    auto it = std::find_if(sweeps.begin(), sweeps.end(),
                           [&](const Sweep& s) { return s.model == model; });
    if (it == sweeps.end()) it = sweeps.insert(sweeps.end(), Sweep{model, {}});
    it->records.push_back(&r);
  }
  json matrices = json::array();
  for (const Sweep& sweep : sweeps) {
    std::vector<std::string> rows, columns;
    for (const Record* r : sweep.records) {
      const std::string row = ShapeLabel(r->dims, {});
      if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
      if (std::find(columns.begin(), columns.end(), r->requested_target) == columns.end()) {
        columns.push_back(r->requested_target);
      }
    }
    json cells = json::array();
    for (const Record* r : sweep.records) {
      const auto row = std::find(rows.begin(), rows.end(), ShapeLabel(r->dims, {})) - rows.begin();
      const auto column =
          std::find(columns.begin(), columns.end(), r->requested_target) - columns.begin();
      json cell = {{"row", row}, {"column", column}, {"status", CaseStatusName(r->status)},
                   {"valid", r->valid}};
      if (r->status == CaseStatus::kOk && r->summary.count > 0) {
        cell["p50_ms"] = MetricJson("p50_ms", *r);
        cell["p99_ms"] = MetricJson("p99_ms", *r);
      } else {
        cell["reason"] = r->failed_stage.empty() ? r->error : r->failed_stage + ": " + r->error;
      }
      cells.push_back(cell);
    }
    matrices.push_back(
        {{"model", sweep.model}, {"rows", rows}, {"columns", columns}, {"cells", cells}});
  }
  if (matrices.empty()) return nullptr;
  return {{"matrices", matrices}};
}

// ---- accuracy ---------------------------------------------------------------------------

json ProportionJson(const Proportion& p) {
  return {{"value", Round(p.value, 1e-5)},
          {"low", Round(p.low, 1e-5)},
          {"high", Round(p.high, 1e-5)},
          {"successes", p.successes},
          {"trials", p.trials}};
}

json AccuracySection(const ReportInputs& in) {
  json rows = json::array();
  for (const Record& r : in.records) {
    if (!r.accuracy) continue;
    const AccuracyRecord& a = *r.accuracy;
    json row = {{"model", r.model},
                {"variant", r.variant},
                {"target", r.requested_target},
                {"status", CaseStatusName(r.status)},
                {"data", a.data_description.empty() ? a.data_source : a.data_description},
                {"top1", ProportionJson(a.top1_accuracy)},
                {"top5", a.top5_accuracy ? ProportionJson(*a.top5_accuracy) : json(nullptr)},
                {"inference_p50_ms", JsonMs(a.inference_summary.Percentile(0.50))}};
    if (r.status != CaseStatus::kOk) row["error"] = r.error;
    rows.push_back(row);
  }
  json drift = json::array();
  for (const json& line : in.token_drift) {
    const json d = line.value("drift", json::object());
    drift.push_back({{"reference", line.value("reference", "")},
                     {"candidate", line.value("candidate", "")},
                     {"target", line.value("target", "")},
                     {"status", line.value("status", "")},
                     {"error", line.value("error", "")},
                     {"positions", d.value("positions", json(nullptr))},
                     {"mean_kld", d.value("mean_kld", json(nullptr))},
                     {"max_kld", d.value("max_kld", json(nullptr))},
                     {"same_top", d.value("same_top", json(nullptr))},
                     {"rms_delta_p", d.value("rms_delta_p", json(nullptr))}});
  }
  if (rows.empty() && drift.empty()) return nullptr;
  return {{"rows", rows}, {"drift", drift}};
}

// ---- llm --------------------------------------------------------------------------------

json LlmSection(const ReportInputs& in) {
  struct Group {
    std::string label;
    json by_prompt = json::array();
    json by_concurrency = json::array();
  };
  std::vector<Group> groups;
  for (const Record& r : in.records) {
    if (!r.llm || r.status != CaseStatus::kOk || r.llm->summary.requests == 0) continue;
    if (r.llm->summary.vision) continue;  // image requests: the vlm section (their prompt is not a length)
    const std::string label = ModelOnTarget(r);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& g) { return g.label == label; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{label});
    const LlmSummary& s = r.llm->summary;
    json point = {{"ttft_p50_ms", JsonMs(s.ttft.Percentile(0.50))},
                  {"tpot_p50_ms", s.tpot.count > 0 ? JsonMs(s.tpot.Percentile(0.50)) : json(nullptr)},
                  {"tokens_per_s", Finite(Round(s.aggregate_tokens_per_s, 0.01))}};
    const LlmSettings& settings = r.llm->settings;
    if (settings.concurrency <= 1 && !settings.prompt_range.set()) {
      point["x"] = r.llm->prompt_tokens_run;
      it->by_prompt.push_back(point);
    }
    if (!settings.prompt_range.set() && settings.rate == 0) {
      point["x"] = settings.concurrency;
      point["prompt_tokens"] = r.llm->prompt_tokens_run;
      it->by_concurrency.push_back(point);
    }
  }
  // Concurrency curves compare like with like: the prompt length the serving runs used.
  for (Group& g : groups) {
    std::optional<int64_t> serving_prompt;
    for (const json& p : g.by_concurrency) {
      if (p["x"].get<int64_t>() > 1) {
        serving_prompt = p["prompt_tokens"].get<int64_t>();
        break;
      }
    }
    // Without a serving run, every point is at one concurrency: a vertical line through prompt
    // lengths that says nothing about concurrency (the prompt chart has them).
    if (!serving_prompt) {
      g.by_concurrency = json::array();
      continue;
    }
    json kept = json::array();
    for (const json& p : g.by_concurrency) {
      if (p["prompt_tokens"].get<int64_t>() == *serving_prompt) kept.push_back(p);
    }
    g.by_concurrency = kept;
  }
  json list = json::array();
  for (Group& g : groups) {
    std::sort(g.by_prompt.begin(), g.by_prompt.end(), ByX);
    std::sort(g.by_concurrency.begin(), g.by_concurrency.end(), ByX);
    list.push_back(
        {{"label", g.label}, {"by_prompt", g.by_prompt}, {"by_concurrency", g.by_concurrency}});
  }
  if (list.empty()) return nullptr;
  return {{"groups", list}};
}

}  // namespace

// `edgebench tune` races, replayed from their records (tune/race_records.h): the answer as the
// command gave it, with every round's intervals.
json TuneSection(const ReportInputs& in) {
  json races = json::array();
  for (const StoredRace& stored : ReplayRaces(in.records)) {
    json race = RaceAnswerJson(stored.race, stored.result);
    race["complete"] = stored.complete;
    races.push_back(std::move(race));
  }
  if (races.empty()) return nullptr;
  return {{"races", races}};
}

json BuildReportData(const ReportInputs& in) {
  json stores = json::array();
  for (const ReportStore& s : in.stores) {
    stores.push_back({{"label", s.label},
                      {"path", s.path},
                      {"records", s.records_read},
                      {"duplicates", s.duplicates}});
  }
  json sections = json::object();
  auto add = [&](const std::string& id, json part) {
    if (!part.is_null()) sections[id] = std::move(part);
  };
  if (!in.records.empty()) {
    add("environment", EnvironmentSection(in));
    add("hosts", HostsSection(in));
    add("summary", SummarySection(in));
    add("rounds", RoundsSummaryJson(SummarizeRounds(in.records)));
  }
  add("latency", LatencySection(in));
  add("warmup", WarmupSection(in));
  add("load", LoadSection(in));
  add("soak", SoakSection(in));
  add("memory", MemorySection(in));
  add("placement", PlacementSection(in));
  std::vector<std::string> store_dirs;  // per record: its store's directory
  for (size_t i = 0; i < in.records.size(); ++i) {
    const std::string& store = i < in.record_store.size() ? in.stores[in.record_store[i]].path : std::string();
    const std::string dir = std::filesystem::path(store).parent_path().string();
    store_dirs.push_back(dir.empty() ? "." : dir);
  }
  add("pipelines", PipelinesSection(in.records, store_dirs, in.labels));
  add("shapes", ShapesSection(in));
  add("accuracy", AccuracySection(in));
  if (!in.conformance.empty()) add("conformance", ConformanceSection(in.conformance));
  add("llm", LlmSection(in));
  add("vlm", VlmSection(in.records, in.labels));
  add("mixes", MixesSection(in.records, in.labels));
  add("roofline", RooflineSection(in.records, in.labels));
  if (!in.tradeoffs.is_null()) add("tradeoffs", in.tradeoffs);
  add("tune", TuneSection(in));
  return {{"title", in.title},
          {"generated_at", UtcNowIso8601()},
          {"edgebench_version", kEdgebenchVersion},
          {"records", in.records.size()},
          {"stores", stores},
          {"warnings", in.warnings},
          {"sections", sections}};
}

}  // namespace edgebench
