#include "report/columns.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/strings.h"
#include "load/scenario_registry.h"
#include "metrics/metrics.h"
#include "record/profile_json.h"

namespace edgebench {

const char kSettleColumnHelp[] =
    "settled at q: the query from which latency was settled, counted from 0 over the warmup "
    "queries and then the measured ones: from that query to the end, the median of the last 10 "
    "queries stays within 5% of the measured queries' median. A number below --warmup means "
    "latency settled during warmup; a number at or above it means the first measured queries "
    "were still settling (give more --warmup). 'never': the median of the last 10 queries was "
    "outside that band at the end of the run (latency drifted). Not settling is a warning, not "
    "a reason for INVALID: the verdict does not depend on this column. '-': the case did not "
    "measure.";

std::string FormatSignificant(double value) {
  if (value == 0 || !std::isfinite(value)) {
    return value == 0 ? "0" : std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
  }
  // Decimals for 3 significant digits: 2 - exponent (0.512 -> 3, 0.00123 -> 5), at least 1.
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(1, 2 - exponent);
  char buffer[64];
  const auto [end, error] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  if (error != std::errc()) return "?";  // a finite double fits 64 characters at these precisions
  return std::string(buffer, end);
}

namespace {

std::string Milliseconds(double ns) { return FormatSignificant(ns / 1e6); }

std::string MillisecondsOrNoValue(const std::optional<int64_t>& ns) {
  return ns ? Milliseconds(static_cast<double>(*ns)) : kNoValue;
}

std::string MebibytesOrNoValue(int64_t bytes) {
  return bytes > 0 ? FormatSignificant(static_cast<double>(bytes) / (1 << 20)) : kNoValue;
}

bool Measured(const Record& r) { return r.status == CaseStatus::kOk; }

// A metric's column (metrics/metrics.h): its header and its value, for measured records;
// fractions as percentages, counts as integers.
Column MetricTableColumn(const char* name) {
  const Metric* metric = FindMetric(name);
  return {metric->header,
          [metric](const Record& r) -> std::string {
            const std::optional<double> value = Measured(r) ? metric->value(r) : std::nullopt;
            if (!value) return kNoValue;
            if (metric->unit == FlatUnit::kCount) return std::to_string(static_cast<int64_t>(*value));
            return FormatSignificant(metric->unit == FlatUnit::kFraction ? 100 * *value : *value);
          },
          true};
}

// The roofline share, marked "!" when above 100% (the record's roofline.above_roof says why):
// never a share above the roof printed as if it were a measurement like the others.
Column RooflineColumn() {
  Column column = MetricTableColumn("roofline");
  column.cell = [inner = column.cell](const Record& r) {
    std::string text = inner(r);
    if (!r.llm && r.tensor_roofline.computed() && !r.tensor_roofline.above_roof.empty()) text += "!";
    return text;
  };
  return column;
}

// Columns every record has, whatever its scenario.
Column ModelColumn() {
  return {"model", [](const Record& r) { return r.model; }};
}
Column TargetColumn() {
  return {"target", [](const Record& r) { return r.requested_target; }};
}
Column StatusColumn() {
  return {"status", [](const Record& r) { return CaseStatusName(r.status); }};
}
Column VerdictColumn() {
  return {"verdict", [](const Record& r) { return std::string(r.valid ? "VALID" : "INVALID"); }};
}

// A pipeline's: each model stage's, "detect: xnnpack 164/164 in 1 part; features: cpu 358/358".
std::string RanOn(const Record& r) {
  if (!Measured(r)) return kNoValue;
  if (r.pipeline) {
    std::string ran;
    for (const PipelineStageRecord& stage : r.pipeline->stages) {
      if (!stage.ran_on.empty()) ran += (ran.empty() ? "" : "; ") + stage.name + ": " + stage.ran_on;
    }
    return ran.empty() ? kNoValue : ran;
  }
  return PlacementText(r.placement, r.device);
}

Column EarlyStoppingColumn(double p);
Column StabilityColumn();

std::vector<Column> SingleStreamColumns() {
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      {"ran on (nodes)", RanOn},
      MetricTableColumn("queries"),
      MetricTableColumn("p50_ms"),
      MetricTableColumn("p90_ms"),
      MetricTableColumn("p99_ms"),
      MetricTableColumn("mean_ms"),
      MetricTableColumn("throughput_qps"),
      RooflineColumn(),
      // "never" rather than kNoValue: never settling is a finding, and must not read as "no
      // value" (a column of it would be dropped). See kSettleColumnHelp.
      {"settled at q",
       [](const Record& r) -> std::string {
         if (!Measured(r) || r.summary.count == 0) return kNoValue;
         return r.settling ? std::to_string(r.settling->query_index) : "never";
       },
       true},
      EarlyStoppingColumn(0.90),
      StabilityColumn(),
      VerdictColumn(),
  };
}

// The LLM scenario's configuration: from the record's settings, failed cases included, so a
// crashed case still says which prompt and generation lengths it was.
Column LlmSettingColumn(const std::string& header, std::function<int64_t(const LlmRecord&)> value) {
  return {header,
          [value](const Record& r) { return r.llm ? std::to_string(value(*r.llm)) : kNoValue; },
          true};
}

// An LLM result column: measured records with at least one measured request only.
Column LlmResultColumn(const std::string& header,
                       std::function<std::string(const LlmRecord&)> cell) {
  return {header,
          [cell](const Record& r) {
            return Measured(r) && r.llm && r.llm->summary.requests > 0 ? cell(*r.llm) : kNoValue;
          },
          true};
}

// A length setting: the fixed length, or the range lengths were drawn from ("64:256").
Column LlmLengthColumn(const std::string& header, std::function<int64_t(const LlmRecord&)> fixed,
                       std::function<LlmTokenRange(const LlmRecord&)> range) {
  return {header,
          [fixed, range](const Record& r) {
            if (!r.llm) return std::string(kNoValue);
            const LlmTokenRange drawn = range(*r.llm);
            return drawn.set() ? std::to_string(drawn.min) + ":" + std::to_string(drawn.max)
                               : std::to_string(fixed(*r.llm));
          },
          true};
}

std::vector<Column> LlmColumns() {
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      LlmLengthColumn(
          "prompt (tokens)",
          [](const LlmRecord& l) { return l.prompt_tokens_run ? l.prompt_tokens_run : l.settings.prompt_tokens; },
          [](const LlmRecord& l) { return l.settings.prompt_range; }),
      LlmLengthColumn(
          "gen (tokens)", [](const LlmRecord& l) { return l.settings.gen_tokens; },
          [](const LlmRecord& l) { return l.settings.gen_range; }),
      LlmSettingColumn("sequences", [](const LlmRecord& l) { return l.settings.sequences; }),
      // Serving-load settings: "-" for lockstep runs, so a table of those drops them.
      {"concurrency",
       [](const Record& r) {
         return r.llm && r.llm->settings.serving() ? std::to_string(r.llm->settings.concurrency)
                                                   : std::string(kNoValue);
       },
       true},
      {"rate (req/s)",
       [](const Record& r) {
         return r.llm && r.llm->settings.rate > 0 ? FormatSignificant(r.llm->settings.rate)
                                                  : std::string(kNoValue);
       },
       true},
      LlmResultColumn("requests",
                      [](const LlmRecord& l) { return std::to_string(l.summary.requests); }),
      MetricTableColumn("image_tokens"),
      MetricTableColumn("preprocess_p50_ms"),
      MetricTableColumn("encode_p50_ms"),
      MetricTableColumn("image_prefill_p50_ms"),
      MetricTableColumn("text_prefill_p50_ms"),
      MetricTableColumn("ttft_p50_ms"),
      MetricTableColumn("ttft_p99_ms"),
      MetricTableColumn("tpot_p50_ms"),
      MetricTableColumn("tpot_p99_ms"),
      MetricTableColumn("itl_p99_ms"),
      MetricTableColumn("prefill_tokens_per_s"),
      MetricTableColumn("tokens_per_s"),
      MetricTableColumn("goodput_rps"),
      MetricTableColumn("decode_roofline"),
      LlmResultColumn("KV cache (MiB)",
                      [](const LlmRecord& l) {
                        return MebibytesOrNoValue(l.session.kv_cache_bytes);
                      }),
      MetricTableColumn("peak_rss_mib"),
      VerdictColumn(),
  };
}

// The agreement scenario (`edgebench agree --out`): the worst output of a target against the
// reference.
Column AgreementColumn(const std::string& header, std::function<std::string(const AgreementRecord&)> cell) {
  return {header,
          [cell](const Record& r) {
            return Measured(r) && r.agreement && !r.agreement->outputs.empty() ? cell(*r.agreement) : kNoValue;
          },
          true};
}

std::vector<Column> AgreementColumns() {
  auto worst = [](const AgreementRecord& a, auto value, bool smallest) {
    double w = value(a.outputs.front());
    for (const OutputAgreement& o : a.outputs) w = smallest ? std::min(w, value(o)) : std::max(w, value(o));
    return FormatSignificant(w);
  };
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      {"reference", [](const Record& r) {
         if (!r.agreement) return std::string(kNoValue);
         return r.agreement->is_reference ? std::string("(itself)") : r.agreement->reference_target;
       }},
      AgreementColumn("outputs", [](const AgreementRecord& a) { return std::to_string(a.outputs.size()); }),
      AgreementColumn("max abs error", [worst](const AgreementRecord& a) {
        return worst(a, [](const OutputAgreement& o) { return o.max_abs_error; }, false);
      }),
      AgreementColumn("min cosine", [](const AgreementRecord& a) {
        double w = a.outputs.front().cosine;
        for (const OutputAgreement& o : a.outputs) w = std::min(w, o.cosine);
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6f", w);
        return std::string(buffer);
      }),
      AgreementColumn("min SQNR (dB)", [worst](const AgreementRecord& a) {
        return worst(a, [](const OutputAgreement& o) { return o.sqnr_db; }, true);
      }),
      VerdictColumn(),
  };
}

// The variant (precision) of the artifact: accuracy and drift compare a model's variants.
Column VariantColumn() {
  return {"variant", [](const Record& r) { return r.variant.empty() ? std::string(kNoValue) : r.variant; }};
}

// The accuracy scenario (`edgebench accuracy --out`, a suite's accuracy): top-1 with its
// interval, top-5 and the time an image takes.
std::vector<Column> AccuracyColumns() {
  auto accuracy = [](const std::string& header, std::function<std::string(const AccuracyRecord&)> cell) {
    return Column{header,
                  [cell](const Record& r) { return Measured(r) && r.accuracy ? cell(*r.accuracy) : kNoValue; }, true};
  };
  auto percent = [](double share) { return FormatSignificant(100 * share); };
  return {
      ModelColumn(),
      VariantColumn(),
      TargetColumn(),
      StatusColumn(),
      MetricTableColumn("images"),
      MetricTableColumn("top1"),
      accuracy("top-1 95% CI", [percent](const AccuracyRecord& a) {
        return percent(a.top1_accuracy.low) + "-" + percent(a.top1_accuracy.high);
      }),
      MetricTableColumn("top5"),
      accuracy("infer p50 (ms)",
               [](const AccuracyRecord& a) { return MillisecondsOrNoValue(a.inference_summary.Percentile(0.50)); }),
      VerdictColumn(),
  };
}

// The drift scenario (`edgebench drift --out`, a suite's drift): where a side first drifts and
// how far its final outputs are from the reference's.
std::vector<Column> DriftColumns() {
  auto drift = [](const std::string& header, std::function<std::string(const TensorDriftRecord&)> cell) {
    return Column{header,
                  [cell](const Record& r) {
                    return Measured(r) && r.tensor_drift && !r.tensor_drift->is_reference ? cell(*r.tensor_drift)
                                                                                          : kNoValue;
                  },
                  true};
  };
  return {
      ModelColumn(),
      VariantColumn(),
      TargetColumn(),
      StatusColumn(),
      {"reference", [](const Record& r) {
         if (!r.tensor_drift) return std::string(kNoValue);
         return r.tensor_drift->is_reference ? std::string("(itself)") : r.tensor_drift->reference_label;
       }},
      drift("matched", [](const TensorDriftRecord& d) { return std::to_string(d.matched); }),
      drift("first drift", [](const TensorDriftRecord& d) { return d.first_drift.empty() ? "none" : d.first_drift; }),
      drift("final min SQNR (dB)", [](const TensorDriftRecord& d) {
        std::optional<double> lowest;
        for (const TensorDriftRow& o : d.final_outputs) {
          if (o.compared) lowest = lowest ? std::min(*lowest, o.sqnr_db) : o.sqnr_db;
        }
        return lowest ? FormatNumberOrInf("%.1f", *lowest) : std::string(kNoValue);
      }),
      MetricTableColumn("mean_kld"),
      MetricTableColumn("same_top"),
      VerdictColumn(),
  };
}

Column ScenarioColumn() {
  return {"scenario", [](const Record& r) { return r.scenario; }};
}

// A column of the load section: measured records that have one.
Column LoadColumn(const std::string& header, std::function<std::string(const Record&, const LoadRecord&)> cell) {
  return {header,
          [cell](const Record& r) { return Measured(r) && r.load && r.summary.count > 0 ? cell(r, *r.load) : kNoValue; },
          true};
}

// A ratio; its header says "(x)".
std::string Ratio(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", x);
  return buffer;
}

// Latency against the same target's single-stream run of the same command.
Column InflationColumn(double p) {
  return {PercentileName(p) + " vs single (x)",
          [p](const Record& r) -> std::string {
            if (!Measured(r) || !r.load_inflation) return kNoValue;
            if (p == 0.50) return Ratio(r.load_inflation->p50_ratio);
            return r.load_inflation->p99_ratio ? Ratio(*r.load_inflation->p99_ratio) : kNoValue;
          },
          true};
}

// The early-stopping estimate of a percentile (--confidence), or why there is none.
Column EarlyStoppingColumn(double p) {
  return LoadColumn(PercentileName(p) + " early-stop (ms)", [p](const Record&, const LoadRecord& l) -> std::string {
    for (size_t i = 0; i < l.early_stopping.size(); ++i) {
      if (l.early_stopping_percentiles[i] != p) continue;
      const EarlyStoppingResult& e = l.early_stopping[i];
      if (!e.supported) return "too few (" + std::to_string(e.queries) + "/" + std::to_string(e.queries_needed) + ")";
      return e.estimate_ns ? Milliseconds(static_cast<double>(*e.estimate_ns)) : "supported";
    }
    return kNoValue;
  });
}

Column StabilityColumn() {
  return LoadColumn("stable", [](const Record&, const LoadRecord& l) -> std::string {
    if (!l.stability.enough_windows) return kNoValue;
    return l.stability.stable ? "yes" : "no";
  });
}

std::vector<Column> MultiStreamColumns() {
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      ScenarioColumn(),
      {"sessions", [](const Record& r) { return r.effective_settings.sessions; }},
      MetricTableColumn("queries"),
      MetricTableColumn("p50_ms"),
      MetricTableColumn("p99_ms"),
      MetricTableColumn("throughput_qps"),
      RooflineColumn(),
      LoadColumn("slowest stream p99 (ms)",
                 [](const Record&, const LoadRecord& l) -> std::string {
                   std::optional<int64_t> worst;
                   for (const LatencySummary& s : l.per_stream) {
                     const auto p99 = s.Percentile(0.99);
                     if (p99 && (!worst || *p99 > *worst)) worst = p99;
                   }
                   return MillisecondsOrNoValue(worst);
                 }),
      InflationColumn(0.50),
      InflationColumn(0.99),
      EarlyStoppingColumn(0.99),
      StabilityColumn(),
      VerdictColumn(),
  };
}

std::vector<Column> ServerColumns() {
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      ScenarioColumn(),
      MetricTableColumn("achieved_qps"),
      MetricTableColumn("queries"),
      MetricTableColumn("p50_ms"),
      MetricTableColumn("p99_ms"),
      LoadColumn("service p50 (ms)",
                 [](const Record&, const LoadRecord& l) {
                   return l.server ? MillisecondsOrNoValue(l.server->service.Percentile(0.50)) : std::string(kNoValue);
                 }),
      LoadColumn("started late",
                 [](const Record&, const LoadRecord& l) {
                   return l.server ? std::to_string(l.server->late_queries) : std::string(kNoValue);
                 }),
      LoadColumn("backlog at end",
                 [](const Record&, const LoadRecord& l) {
                   return l.server ? std::to_string(l.server->backlog_at_end) : std::string(kNoValue);
                 }),
      InflationColumn(0.99),
      {"peak (q/s)",
       [](const Record& r) -> std::string {
         if (!r.load_peak) return kNoValue;
         return r.load_peak->peak_qps ? FormatSignificant(*r.load_peak->peak_qps) : "none passed";
       },
       true},
      VerdictColumn(),
  };
}

std::vector<Column> CameraColumns() {
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      ScenarioColumn(),
      LoadColumn("frames",
                 [](const Record&, const LoadRecord& l) {
                   return l.camera ? std::to_string(l.camera->total.processed) + "/" +
                                         std::to_string(l.camera->total.delivered)
                                   : std::string(kNoValue);
                 }),
      MetricTableColumn("dropped_frames"),
      MetricTableColumn("late_frames"),
      MetricTableColumn("slowest_stream_fps"),
      MetricTableColumn("p50_ms"),
      MetricTableColumn("p99_ms"),
      RooflineColumn(),
      VerdictColumn(),
  };
}

std::vector<Column> OfflineColumns() {
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      LoadColumn("batch", [](const Record&, const LoadRecord& l) { return std::to_string(l.batch); }),
      LoadColumn("sessions", [](const Record&, const LoadRecord& l) { return std::to_string(l.streams); }),
      MetricTableColumn("queries"),
      MetricTableColumn("samples_per_s"),
      RooflineColumn(),
      MetricTableColumn("p50_ms"),
      MetricTableColumn("p99_ms"),
      StabilityColumn(),
      VerdictColumn(),
  };
}

std::vector<Column> SoakColumns() {
  auto window_p99 = [](bool last) {
    return [last](const Record&, const LoadRecord& l) -> std::string {
      if (!l.drift || l.drift->first_steady_window < 0) return kNoValue;
      if (!last) return MillisecondsOrNoValue(l.windows[static_cast<size_t>(l.drift->first_steady_window)].p99_ns);
      for (auto it = l.windows.rbegin(); it != l.windows.rend(); ++it) {
        if (!it->partial && it->p99_ns) return Milliseconds(static_cast<double>(*it->p99_ns));
      }
      return kNoValue;
    };
  };
  return {
      ModelColumn(),
      TargetColumn(),
      StatusColumn(),
      ScenarioColumn(),
      LoadColumn("streams", [](const Record&, const LoadRecord& l) { return std::to_string(l.streams); }),
      MetricTableColumn("queries"),
      LoadColumn("windows", [](const Record&, const LoadRecord& l) { return std::to_string(l.windows.size()); }),
      MetricTableColumn("p99_ms"),
      LoadColumn("first window p99 (ms)", window_p99(false)),
      LoadColumn("last window p99 (ms)", window_p99(true)),
      LoadColumn("p99 drift (x)",
                 [](const Record&, const LoadRecord& l) -> std::string {
                   return l.drift && l.drift->p99_ratio ? Ratio(*l.drift->p99_ratio) : kNoValue;
                 }),
      LoadColumn("first window over 1.5x",
                 [](const Record&, const LoadRecord& l) -> std::string {
                   if (!l.drift) return kNoValue;
                   return l.drift->first_window_over ? std::to_string(*l.drift->first_window_over) : "none";
                 }),
      VerdictColumn(),
  };
}

// The device monitor's columns (docs/monitoring.md), before the verdict in every measuring set:
// the worker's peak resident memory (tensor scenarios), energy per query (per token for language models) where a
// sensor measures the device's total, and what the monitor found (throttling, a leak).
// --profile: the operator types that took most of the measured runs' operator time.
std::vector<Column> WithProfileColumn(std::vector<Column> columns) {
  Column top{"top operators (share of op time)", [](const Record& r) -> std::string {
               if (r.operator_profile) return TopOperatorsText(*r.operator_profile, 3);
               return r.operator_profile_unavailable.empty() ? kNoValue : "unavailable (see notes)";
             }};
  columns.insert(columns.end() - 1, top);
  return columns;
}

// --start (docs/cold-start.md): how the case started, its load and its first query (a language
// model's first request's TTFT); "-" in records without a start section, so tables of other
// runs drop them.
std::vector<Column> WithStartColumns(std::vector<Column> columns) {
  const std::vector<Column> start = {
      {"start", [](const Record& r) -> std::string { return r.start ? r.start->mode : kNoValue; }},
      {"load (ms)",
       [](const Record& r) -> std::string {
         return r.start && r.status == CaseStatus::kOk ? FormatSignificant(static_cast<double>(r.load_ns) / 1e6)
                                                       : kNoValue;
       },
       true},
      {"1st query (ms)",
       [](const Record& r) -> std::string {
         if (!r.start || r.status != CaseStatus::kOk) return kNoValue;
         std::optional<int64_t> first;
         if (r.llm) {
           if (!r.llm->warmup.empty()) first = r.llm->warmup.front().ttft_ns();
           else if (!r.llm->measured.empty()) first = r.llm->measured.front().ttft_ns();
         } else if (!r.warmup_ns.empty()) {
           first = r.warmup_ns.front();
         } else if (!r.measured_ns.empty()) {
           first = r.measured_ns.front();
         }
         return first ? FormatSignificant(static_cast<double>(*first) / 1e6) : kNoValue;
       },
       true},
  };
  columns.insert(columns.end() - 1, start.begin(), start.end());
  return columns;
}

std::vector<Column> WithMonitorColumns(std::vector<Column> columns, bool per_token) {
  auto derived = [](const Record& r) -> const MonitorDerived* {
    return Measured(r) && r.monitor && r.monitor->disabled_reason.empty() ? &r.monitor->derived : nullptr;
  };
  std::vector<Column> monitor = {
      MetricTableColumn("peak_rss_mib"),
      MetricTableColumn(per_token ? "energy_mj_per_token" : "energy_mj_per_query"),
      {"device",
       [derived](const Record& r) -> std::string {
         const MonitorDerived* d = derived(r);
         if (!d) return kNoValue;
         std::string flags;
         if (!d->throttling.empty()) flags = "throttled x" + std::to_string(d->throttling.size());
         if (d->memory.leak) flags += std::string(flags.empty() ? "" : ", ") + "leak";
         if (d->memory.profiler_growth) flags += std::string(flags.empty() ? "" : ", ") + "growth (profiler)";
         if (r.monitor->leak_sites && r.monitor->leak_sites->leaks > 0) {
           flags += std::string(flags.empty() ? "" : ", ") + "leak sites x" + std::to_string(r.monitor->leak_sites->leaks);
         }
         return flags.empty() ? kNoValue : flags;
       }},
  };
  // Language models have their peak RSS column already (among their own).
  columns.insert(columns.end() - 1, monitor.begin() + (per_token ? 1 : 0), monitor.end());
  return columns;
}

// How soon a table too wide for the terminal leaves a column out: what a row is never; then the
// details that explain a result before the results themselves.
std::vector<Column> Ranked(std::vector<Column> columns) {
  // What a row is: a language model's case is its prompt and generation lengths too. A row's
  // status is said by its verdict and its note when the status column has to go.
  static const char* const kIdentity[] = {"model", "target", "scenario", "prompt (tokens)", "gen (tokens)", "verdict"};
  // Which device ran the nodes stays as long as the results do: the label of a target alone
  // hides a runtime that leaves most of a model to the CPU.
  static const char* const kDetails[] = {"settled at q", "stable", "mean (ms)", "p90 (ms)", "queries", "requests",
                                         "sequences", "image tokens", "KV cache (MiB)",
                                         "top operators (share of op time)", "device", "1st query (ms)",
                                         "first window over 1.5x", "windows"};
  for (Column& column : columns) {
    const auto is = [&](const char* header) { return column.header == header; };
    if (std::any_of(std::begin(kIdentity), std::end(kIdentity), is)) column.rank = 0;
    if (std::any_of(std::begin(kDetails), std::end(kDetails), is)) column.rank = 2;
    if (column.header.find("early-stop") != std::string::npos) column.rank = 2;
  }
  return columns;
}

// The one registration of column sets, keyed by the scenario's family (Record::scenario up to
// its ':'). Immutable once built.
const std::vector<std::pair<std::string, std::vector<Column>>>& ColumnSets() {
  static const auto* const sets = new std::vector<std::pair<std::string, std::vector<Column>>>{
      {"single-stream", Ranked(WithStartColumns(WithProfileColumn(WithMonitorColumns(SingleStreamColumns(), false))))},
      {"multi-stream", Ranked(WithProfileColumn(WithMonitorColumns(MultiStreamColumns(), false)))},
      {"server", Ranked(WithProfileColumn(WithMonitorColumns(ServerColumns(), false)))},
      {"camera", Ranked(WithProfileColumn(WithMonitorColumns(CameraColumns(), false)))},
      {"offline", Ranked(WithProfileColumn(WithMonitorColumns(OfflineColumns(), false)))},
      {"soak", Ranked(WithProfileColumn(WithMonitorColumns(SoakColumns(), false)))},
      {"llm", Ranked(WithStartColumns(WithProfileColumn(WithMonitorColumns(LlmColumns(), true))))},
      {"agree", Ranked(AgreementColumns())},
      {"accuracy", Ranked(WithMonitorColumns(AccuracyColumns(), false))},
      {"drift", Ranked(DriftColumns())},
  };
  return *sets;
}

// The columns every scenario of the registry has (load/scenario_registry.h).
const std::vector<Column>& RegisteredScenarioColumns() {
  static const auto* const load = new std::vector<Column>(Ranked(WithProfileColumn(WithMonitorColumns(
      {ModelColumn(), TargetColumn(), StatusColumn(), ScenarioColumn(), MetricTableColumn("queries"),
       MetricTableColumn("p50_ms"), MetricTableColumn("p99_ms"), MetricTableColumn("throughput_qps"),
       RooflineColumn(), StabilityColumn(), VerdictColumn()},
      false))));
  return *load;
}

}  // namespace

const std::vector<Column>& ColumnsForScenario(std::string_view scenario) {
  const std::string_view family = scenario.substr(0, scenario.find(':'));
  for (const auto& [name, columns] : ColumnSets()) {
    if (name == family) return columns;
  }
  // A scenario of the registry (load/scenario_registry.h): the columns every load scenario has.
  if (FindRegisteredScenario(std::string(family))) {
    return RegisteredScenarioColumns();
  }
  static const auto* const common =
      new std::vector<Column>(Ranked({ModelColumn(), TargetColumn(), StatusColumn(), VerdictColumn()}));
  return *common;
}

std::vector<std::string> ScenarioColumnHeaders() {
  std::vector<std::string> headers;
  for (const auto& [name, columns] : ColumnSets()) {
    for (const Column& column : columns) headers.push_back(column.header);
  }
  for (const Column& column : RegisteredScenarioColumns()) headers.push_back(column.header);
  return headers;
}

std::vector<std::string> ScenariosWithColumns() {
  std::vector<std::string> names;
  for (const auto& [name, columns] : ColumnSets()) names.push_back(name);
  return names;
}

}  // namespace edgebench
