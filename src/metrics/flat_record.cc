#include "metrics/flat_record.h"

#include <cmath>
#include <optional>

#include "stats/tensor_roofline.h"

namespace edgebench {
namespace {

using OrderedJson = nlohmann::ordered_json;

// A metric's value in its column: null when the record has none; counts as integers.
OrderedJson MetricJson(const Metric& metric, const Record& record) {
  const std::optional<double> value = metric.value(record);
  if (!value) return nullptr;
  if (metric.unit == FlatUnit::kCount) return static_cast<int64_t>(*value);
  return *value;
}

// The column of metric `name`, its unit and description from the registry.
FlatColumn FlatColumnOfMetric(const char* name) {
  const Metric* metric = FindMetric(name);
  return {metric->name, metric->unit, metric->description, metric};
}

// The thread count the backend used, from the effective target's options (the record's one
// reader of them, stats/tensor_roofline.h): a backend that takes no thread option, or left it
// to the runtime (0), gives null.
OrderedJson Threads(const Record& record) {
  const int threads = TargetThreads(record.effective_target);
  return threads > 0 ? OrderedJson(threads) : OrderedJson(nullptr);
}

// Samples per query: offline's bound batch, else a dimension named as a batch by --dim.
OrderedJson Batch(const Record& record) {
  if (record.load && record.load->batch > 0) return record.load->batch;
  for (const char* name : {"batch", "batch_size", "N"}) {
    const auto it = record.dims.find(name);
    if (it != record.dims.end()) return it->second;
  }
  return nullptr;
}

// server:RATE's requested rate.
OrderedJson Rate(const Record& record) {
  if (ScenarioTable(record.scenario) != "server") return nullptr;
  const size_t colon = record.scenario.find(':');
  if (colon == std::string::npos) return nullptr;
  try {
    size_t used = 0;
    const std::string text = record.scenario.substr(colon + 1);
    const double rate = std::stod(text, &used);
    return used == text.size() ? OrderedJson(rate) : OrderedJson(nullptr);
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace


const std::vector<FlatColumn>& FlatColumns() {
  static const std::vector<FlatColumn> columns = {
      {"id", FlatUnit::kText, "the record's id"},
      {"started_at", FlatUnit::kText, "when the case started (UTC, ISO 8601)"},
      {"case_key", FlatUnit::kText, "the case key: equal keys measured the same thing"},
      {"host", FlatUnit::kText, "the machine: its fleet host name (edgebench fleet), else its hostname"},
      {"cpu_model", FlatUnit::kText, "the machine's CPU"},
      {"model", FlatUnit::kText, "the model's name"},
      {"variant", FlatUnit::kText, "the model variant (precision); empty when none is named"},
      {"backend", FlatUnit::kText, "the backend (runtime)"},
      {"device", FlatUnit::kText, "the backend's device"},
      {"target", FlatUnit::kText, "the effective target, with every option in force"},
      {"threads", FlatUnit::kCount, "the effective target's threads option; null when it has none"},
      {"batch", FlatUnit::kCount, "samples per query: offline's batch, or a --dim named batch, batch_size or N"},
      {"scenario", FlatUnit::kText, "the scenario as run, e.g. server:200"},
      {"streams", FlatUnit::kCount, "streams (multi-stream, soak) or sessions (server, offline)"},
      {"rate_qps", FlatUnit::kPerSecond, "server: the offered rate the scenario asked for"},
      {"status", FlatUnit::kText, "ok, failed, crashed, timeout, unavailable, skipped, oom"},
      {"valid", FlatUnit::kFlag, "the verdict: false when a rule made the result INVALID"},
      {"latency_case_key", FlatUnit::kText, "accuracy: the case_key of the matching single-stream record"},
      {"round", FlatUnit::kCount, "--rounds: which round the record was (1-based); null without rounds"},
      {"rounds", FlatUnit::kCount, "--rounds: how many rounds the command ran; null without rounds"},
      FlatColumnOfMetric("queries"),
      FlatColumnOfMetric("p50_ms"),
      FlatColumnOfMetric("p90_ms"),
      FlatColumnOfMetric("p99_ms"),
      FlatColumnOfMetric("mean_ms"),
      FlatColumnOfMetric("throughput_qps"),
      FlatColumnOfMetric("achieved_qps"),
      FlatColumnOfMetric("samples_per_s"),
      FlatColumnOfMetric("dropped_frames"),
      FlatColumnOfMetric("late_frames"),
      FlatColumnOfMetric("slowest_stream_fps"),
      FlatColumnOfMetric("energy_mj_per_query"),
      FlatColumnOfMetric("energy_mj_per_token"),
      {"energy_note", FlatUnit::kText, "why energy is null, when the monitor said"},
      FlatColumnOfMetric("mean_power_mw"),
      FlatColumnOfMetric("peak_power_mw"),
      FlatColumnOfMetric("peak_rss_mib"),
      {"memory_leak", FlatUnit::kFlag, "the RSS growth verdict: true when the worker's memory grew as a leak"},
      {"weights", FlatUnit::kText,
       "--memory-map: each model file's weights at load (mapped, copied, mapped and copied, neither), ';'-joined"},
      {"leak_sites", FlatUnit::kCount, "--leak-sites: the sites judged leaking; null without --leak-sites"},
      {"leak_top_site", FlatUnit::kText, "--leak-sites: the largest growth's function and library"},
      {"leak_top_bytes_per_1k", FlatUnit::kCount, "--leak-sites: the largest growth, bytes per 1,000 queries"},
      FlatColumnOfMetric("top1"),
      FlatColumnOfMetric("top1_ci_low"),
      FlatColumnOfMetric("top1_ci_high"),
      FlatColumnOfMetric("top5"),
      FlatColumnOfMetric("images"),
      FlatColumnOfMetric("mean_kld"),
      FlatColumnOfMetric("same_top"),
      FlatColumnOfMetric("ttft_p50_ms"),
      FlatColumnOfMetric("ttft_p99_ms"),
      FlatColumnOfMetric("tpot_p50_ms"),
      FlatColumnOfMetric("tpot_p99_ms"),
      FlatColumnOfMetric("itl_p99_ms"),
      FlatColumnOfMetric("prefill_tokens_per_s"),
      FlatColumnOfMetric("tokens_per_s"),
      FlatColumnOfMetric("goodput_rps"),
      FlatColumnOfMetric("image_tokens"),
      FlatColumnOfMetric("preprocess_p50_ms"),
      FlatColumnOfMetric("encode_p50_ms"),
      FlatColumnOfMetric("image_prefill_p50_ms"),
      FlatColumnOfMetric("text_prefill_p50_ms"),
      FlatColumnOfMetric("roofline"),
      FlatColumnOfMetric("compute_peak_share"),
      FlatColumnOfMetric("achieved_gflops"),
      FlatColumnOfMetric("decode_roofline"),
      FlatColumnOfMetric("decode_gb_per_s"),
      FlatColumnOfMetric("prefill_gflops"),
      {"prompt_tokens", FlatUnit::kCount, "llm: prompt length as run"},
      {"gen_tokens", FlatUnit::kCount, "llm: tokens generated per request"},
      {"concurrency", FlatUnit::kCount, "llm: requests in flight"},
  };
  return columns;
}

const FlatColumn* FindFlatColumn(const std::string& name) {
  for (const FlatColumn& column : FlatColumns()) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

std::string ScenarioTable(const std::string& scenario) { return scenario.substr(0, scenario.find(':')); }

nlohmann::ordered_json FlattenRecord(const Record& r) {
  OrderedJson row;
  for (const FlatColumn& column : FlatColumns()) row[column.name] = nullptr;
  row["id"] = r.id;
  row["started_at"] = r.started_at;
  row["case_key"] = r.case_key;
  row["host"] = HostName(r.environment);
  row["cpu_model"] = r.environment.cpu_model;
  row["model"] = r.model;
  row["variant"] = r.variant;
  row["backend"] = r.backend;
  row["device"] = r.device;
  row["target"] = r.effective_target.empty() ? r.requested_target : r.effective_target;
  row["threads"] = Threads(r);
  row["batch"] = Batch(r);
  row["scenario"] = r.scenario;
  if (r.load) row["streams"] = r.load->streams;
  row["rate_qps"] = Rate(r);
  row["status"] = CaseStatusName(r.status);
  row["valid"] = r.valid;
  if (r.round) {
    row["round"] = r.round->round;
    row["rounds"] = r.round->rounds;
  }
  for (const FlatColumn& column : FlatColumns()) {
    if (column.metric) row[column.name] = MetricJson(*column.metric, r);
  }
  if (r.monitor) {
    const EnergyResult& energy = r.monitor->derived.energy;
    if (!energy.per_query_mj && !energy.reason.empty()) row["energy_note"] = energy.reason;
  } else if (r.status == CaseStatus::kOk) {
    row["energy_note"] = "no monitor section (run with the monitor to measure energy)";
  }
  if (r.monitor && r.status == CaseStatus::kOk) {
    const MonitorRecord& m = *r.monitor;
    if (m.derived.memory.growth_bytes_per_query) row["memory_leak"] = m.derived.memory.leak;
    std::string weights;
    for (const WeightsResidency& w : m.derived.weights) {
      weights += (weights.empty() ? "" : ";") + w.file.substr(w.file.rfind('/') + 1) + ":" + w.verdict;
    }
    if (!weights.empty()) row["weights"] = weights;
    if (m.leak_sites && m.leak_sites->reason.empty()) {
      row["leak_sites"] = m.leak_sites->leaks;
      if (!m.leak_sites->sites.empty()) {
        const LeakSite& top = m.leak_sites->sites.front();
        row["leak_top_site"] = top.function + " (" + top.library + ")";
        row["leak_top_bytes_per_1k"] = static_cast<int64_t>(std::llround(top.bytes_per_1k_queries));
      }
    }
  }
  if (r.accuracy) row["latency_case_key"] = r.accuracy->latency_case_key;
  if (r.tensor_drift && !r.tensor_drift->is_reference) {
    // A drift side: where it starts and how far its final outputs are from the reference's.
    const TensorDriftRecord& d = *r.tensor_drift;
    row["drift_reference"] = d.reference_label;
    row["first_drift"] = d.first_drift.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.first_drift);
    std::optional<double> lowest;
    for (const TensorDriftRow& o : d.final_outputs) {
      if (o.compared && !std::isnan(o.sqnr_db)) lowest = lowest ? std::min(*lowest, o.sqnr_db) : o.sqnr_db;
    }
    row["final_output_sqnr_db"] = lowest && std::isfinite(*lowest) ? nlohmann::json(*lowest)
                                  : lowest                        ? nlohmann::json("inf")
                                                                  : nlohmann::json(nullptr);
    row["matched_tensors"] = d.matched;
    if (d.top1_delta_points) row["top1_delta_points"] = *d.top1_delta_points;
  }
  if (r.llm) {
    row["prompt_tokens"] = r.llm->prompt_tokens_run;
    row["gen_tokens"] = r.llm->settings.gen_tokens;
    row["concurrency"] = r.llm->settings.concurrency;
  }
  return row;
}

}  // namespace edgebench
