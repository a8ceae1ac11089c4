#include "report/flat_record.h"

#include <charconv>
#include <optional>

#include "backends/target.h"

namespace edgebench {
namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson Ms(const std::optional<int64_t>& ns) { return ns ? OrderedJson(static_cast<double>(*ns) / 1e6) : OrderedJson(nullptr); }
OrderedJson Optional(const std::optional<double>& v) { return v ? OrderedJson(*v) : OrderedJson(nullptr); }

std::optional<int64_t> ParseInteger(const std::string& text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// The thread count the backend used, from the effective target's options: a backend that
// takes no thread option (or says its own in words) gives null.
OrderedJson Threads(const Record& record) {
  auto target = ParseTarget(record.effective_target);
  if (!target.ok()) return nullptr;
  const auto it = target.value().options.find("threads");
  if (it == target.value().options.end()) return nullptr;
  const auto threads = ParseInteger(it->second);
  return threads ? OrderedJson(*threads) : OrderedJson(nullptr);
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

bool HasLatency(const Record& record) { return record.summary.count > 0; }

}  // namespace

std::string FlatUnitName(FlatUnit unit) {
  switch (unit) {
    case FlatUnit::kText: return "text";
    case FlatUnit::kCount: return "count";
    case FlatUnit::kFlag: return "flag";
    case FlatUnit::kMilliseconds: return "ms";
    case FlatUnit::kMillijoules: return "mJ";
    case FlatUnit::kMilliwatts: return "mW";
    case FlatUnit::kMebibytes: return "MiB";
    case FlatUnit::kFraction: return "fraction";
    case FlatUnit::kPerSecond: return "1/s";
  }
  return "text";
}

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
      {"queries", FlatUnit::kCount, "measured queries"},
      {"p50_ms", FlatUnit::kMilliseconds, "median latency"},
      {"p90_ms", FlatUnit::kMilliseconds, "90th percentile latency"},
      {"p99_ms", FlatUnit::kMilliseconds, "99th percentile latency (null when too few queries)"},
      {"mean_ms", FlatUnit::kMilliseconds, "mean latency"},
      {"throughput_qps", FlatUnit::kPerSecond, "measured queries / wall time of the measured phase"},
      {"samples_per_s", FlatUnit::kPerSecond, "offline: queries x batch / wall time"},
      {"energy_mj_per_query", FlatUnit::kMillijoules, "device energy over the measured phase per query (per request for LLMs)"},
      {"energy_note", FlatUnit::kText, "why energy is null, when the monitor said"},
      {"mean_power_mw", FlatUnit::kMilliwatts, "mean device power over the measured phase"},
      {"peak_power_mw", FlatUnit::kMilliwatts, "peak device power over the measured phase"},
      {"peak_rss_mib", FlatUnit::kMebibytes, "peak resident memory of the worker"},
      {"top1", FlatUnit::kFraction, "accuracy: top-1 accuracy"},
      {"top1_ci_low", FlatUnit::kFraction, "accuracy: top-1's 95% Wilson interval, low end"},
      {"top1_ci_high", FlatUnit::kFraction, "accuracy: top-1's 95% Wilson interval, high end"},
      {"top5", FlatUnit::kFraction, "accuracy: top-5 accuracy (null under 5 classes)"},
      {"images", FlatUnit::kCount, "accuracy: images scored"},
      {"ttft_p50_ms", FlatUnit::kMilliseconds, "llm: median time to first token"},
      {"ttft_p99_ms", FlatUnit::kMilliseconds, "llm: 99th percentile time to first token"},
      {"tpot_p50_ms", FlatUnit::kMilliseconds, "llm: median time per output token (per request)"},
      {"tokens_per_s", FlatUnit::kPerSecond, "llm: generated tokens / wall time (all sequences)"},
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
  if (HasLatency(r)) {
    row["queries"] = r.summary.count;
    row["p50_ms"] = Ms(r.summary.Percentile(0.50));
    row["p90_ms"] = Ms(r.summary.Percentile(0.90));
    row["p99_ms"] = Ms(r.summary.Percentile(0.99));
    row["mean_ms"] = r.summary.mean_ns / 1e6;
    row["throughput_qps"] = r.summary.throughput_qps;
  }
  if (r.load && r.load->samples_per_s > 0) row["samples_per_s"] = r.load->samples_per_s;
  if (r.monitor) {
    const EnergyResult& energy = r.monitor->derived.energy;
    row["energy_mj_per_query"] = Optional(energy.per_query_mj);
    if (!energy.per_query_mj && !energy.reason.empty()) row["energy_note"] = energy.reason;
    row["mean_power_mw"] = Optional(energy.mean_power_mw);
    row["peak_power_mw"] = Optional(energy.peak_power_mw);
    if (const auto& peak = r.monitor->derived.memory.peak_rss_bytes) {
      row["peak_rss_mib"] = static_cast<double>(*peak) / (1 << 20);
    }
  } else if (r.status == CaseStatus::kOk) {
    row["energy_note"] = "no monitor section (run with the monitor to measure energy)";
  }
  if (r.llm && r.llm->rss_peak_bytes > 0 && row["peak_rss_mib"].is_null()) {
    row["peak_rss_mib"] = static_cast<double>(r.llm->rss_peak_bytes) / (1 << 20);
  }
  if (r.accuracy) {
    const AccuracyRecord& a = *r.accuracy;
    row["latency_case_key"] = a.latency_case_key;
    if (a.top1_accuracy.trials > 0) {
      row["top1"] = a.top1_accuracy.value;
      row["top1_ci_low"] = a.top1_accuracy.low;
      row["top1_ci_high"] = a.top1_accuracy.high;
      row["images"] = a.top1_accuracy.trials;
    }
    if (a.top5_accuracy && a.top5_accuracy->trials > 0) row["top5"] = a.top5_accuracy->value;
  }
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
    const LlmRecord& l = *r.llm;
    if (l.summary.ttft.count > 0) {
      row["ttft_p50_ms"] = Ms(l.summary.ttft.Percentile(0.50));
      row["ttft_p99_ms"] = Ms(l.summary.ttft.Percentile(0.99));
    }
    if (l.summary.tpot.count > 0) row["tpot_p50_ms"] = Ms(l.summary.tpot.Percentile(0.50));
    if (l.summary.wall_ns > 0) row["tokens_per_s"] = l.summary.aggregate_tokens_per_s;
    row["prompt_tokens"] = l.prompt_tokens_run;
    row["gen_tokens"] = l.settings.gen_tokens;
    row["concurrency"] = l.settings.concurrency;
  }
  return row;
}

}  // namespace edgebench
