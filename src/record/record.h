// The record: everything about one case (model x target x scenario). One schema for every
// printer and the store; raw samples are kept apart from the summary computed from them.
//
// In JSON (docs/records.md): a common header (schema, id, case_key, config, environment, status,
// failure, verdict, notes) and sections present when the case has them (placement, timings,
// samples and summary for tensor scenarios, llm for language models). Schema versions:
//   edgebench.record/1  samples as JSON arrays of latencies
//   edgebench.record/2  samples compact (core/sample_codec.h) with issue times and streams;
//                       case key, model hash, dims bound by default, input sources, and more of
//                       the machine (commit, ISA features, memory, load average)
//   edgebench.record/3  the load scenarios: a `load` section, server service times, and soak
//                       samples past the raw-sample cap as per-window histograms (an older
//                       reader would take those for a run of no queries)
// The reader accepts both, fills what an older record lacks with defaults, and recomputes the
// summary and verdict from the raw samples; a verdict that differs from the stored one is kept
// as recomputed, with a warning (read_warnings), not rejected.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/environment.h"
#include "core/machine_limits.h"
#include "record/output_agreement.h"
#include "record/tensor_drift_record.h"
#include "record/pipeline_record.h"
#include "record/mix_tag.h"
#include "record/round_tag.h"
#include "record/start_record.h"
#include "record/tune_tag.h"
#include "record/record_token_drift.h"
#include "core/llm_types.h"
#include "core/operator_profile.h"
#include "record/record_sandbox.h"
#include "core/placement.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/peak_step.h"
#include "core/run_settings.h"
#include "record/monitor_record.h"
#include "stats/accuracy.h"
#include "stats/camera_summary.h"
#include "stats/early_stopping.h"
#include "stats/histogram_series.h"
#include "stats/server_histograms.h"
#include "stats/llm_roofline.h"
#include "stats/tensor_roofline.h"
#include "stats/llm_summary.h"
#include "stats/load_summary.h"
#include "stats/summary.h"
#include "stats/windows.h"

namespace edgebench {

inline constexpr const char* kRecordSchema = "edgebench.record/3";

// How a case ended.
enum class CaseStatus {
  kOk,           // measured
  kFailed,       // the runtime returned an error (load, prepare or run)
  kCrashed,      // the worker died on a signal
  kTimeout,      // the worker ran past its time limit and was killed
  kUnavailable,  // the backend or device is not available on this machine or build
  kSkipped,      // the model has no artifact the target's backend reads
  kOom,          // the worker's memory went over the case's limit (--case-memory) and was killed
};
std::string CaseStatusName(CaseStatus status);
std::optional<CaseStatus> ParseCaseStatus(const std::string& name);

struct InputDescription {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;  // as prepared
  std::string source;          // where its values came from, e.g. "seeded uniform [-1, 1) (seed 0)"
};

// The LLM scenario's part of a record (scenario "llm").
struct LlmRecord {
  LlmSettings settings;             // as requested for this case
  int64_t prompt_tokens_run = 0;    // prompt length as run (the tokenized text's, for text)
  std::string prompt_source;
  std::vector<LlmRequestTiming> warmup;    // raw: start 0, then ns offsets
  std::vector<LlmRequestTiming> measured;
  // The harness's steady clock (ns) at the first measured request's start: `measured` keeps
  // offsets from it, so a mix's timeline lays the requests beside other processes' (0: unknown).
  int64_t measured_origin_ns = 0;
  LlmSessionInfo session;
  int64_t rss_bytes = 0;       // resident memory after the last request
  int64_t rss_peak_bytes = 0;  // peak resident memory of the worker
  LlmSummary summary;          // derived from `measured`
  LlmRoofline roofline;        // derived from the summary, the session's work and the machine's limits
};

// The agreement scenario's part of a record (scenario "agree", from `edgebench agree`): this
// target's outputs against the reference target's, on the same inputs.
struct AgreementRecord {
  std::string reference_target;  // as the user wrote it
  bool is_reference = false;     // this record is the reference's own run
  std::string input;             // where the inputs came from
  Tolerances tolerances;
  std::vector<OutputAgreement> outputs;  // one per paired output; empty for the reference
};

// The accuracy scenario's part of a record (scenario "accuracy", from `edgebench accuracy`): a
// labelled data set through one artifact on one target (docs/accuracy.md). The per-image
// answers and times are raw; the rest is derived from them by FinishRecord.
struct AccuracyRecord {
  // What ran.
  std::string data_source;  // --data as given
  std::string data_split;
  int64_t data_offset = 0;
  int64_t data_limit = 0;   // 0: all
  std::string data_description;  // files read and the range
  int64_t data_total = 0;        // images in the split
  int32_t data_classes = 0;
  std::string preprocess;        // --preprocess text in force
  std::string input;             // the model input fed, e.g. "input [1x1x28x28] nchw"
  std::string output;            // the class-score output read
  int64_t classes = 0;           // the model's class count
  std::vector<std::string> class_names;  // the manifest's labels
  int64_t warmup = 0;            // inferences before the timed pass, excluded
  // CaseKey of `edgebench run MODEL?variant=V --target T` on the same artifact and target, so
  // accuracy joins the latency records of what it measured.
  std::string latency_case_key;
  // Raw, per image in data set order.
  std::vector<int32_t> labels;
  std::vector<int32_t> top1;   // -1: the scores had a NaN
  std::vector<bool> in_top5;
  std::vector<int64_t> preprocess_ns;
  std::vector<int64_t> inference_ns;
  int64_t nonfinite_outputs = 0;
  // Derived.
  Proportion top1_accuracy;
  std::optional<Proportion> top5_accuracy;  // with 5 classes or more
  std::vector<ClassAccuracy> per_class;
  LatencySummary preprocess_summary;  // per image, wall time = their sum
  LatencySummary inference_summary;
};

// Latency under load against the same target's single-stream latency in the same command.
struct Inflation {
  std::string baseline_record_id;
  int64_t baseline_p50_ns = 0;
  std::optional<int64_t> baseline_p99_ns;
  double p50_ratio = 0;
  std::optional<double> p99_ratio;  // when both runs have a p99
};

// The answer of a server peak search (--find-peak), on its last step's record.
struct PeakAnswer {
  std::optional<double> peak_qps;  // the highest rate that passed; absent when none did
  double p99_bound_ms = 0;
  std::vector<PeakStep> steps;     // in the order they ran
  std::string explanation;
};

// What tensor scenarios add beyond the summary (docs/metrics.md, "Load"), derived from the raw
// samples and the configuration by FinishRecord.
struct LoadRecord {
  int streams = 1;  // multi-stream and soak streams, server and offline sessions
  std::vector<LatencySummary> per_stream;  // with more than one stream
  std::optional<ServerSummary> server;
  std::optional<CameraSummary> camera;  // camera:N@FPS
  std::string camera_unusable;          // why the frame counts do not fit the samples, if they do not
  int64_t batch = 0;          // samples per query (offline): the bound first axis of input 0
  double samples_per_s = 0;   // offline: queries x batch / wall time
  std::vector<LatencyWindow> windows;  // of effective_settings.window_ms over the measured phase
  StabilityCheck stability;
  std::optional<Drift> drift;  // soak
  std::vector<EarlyStoppingResult> early_stopping;  // with --confidence: p90 and p99, or the server bound
  std::vector<double> early_stopping_percentiles;    // the percentile of each result
  // 0: every percentile here and in the summary is exact (from the raw samples). Otherwise they
  // come from the histograms of a run past the raw-sample cap and lie within this relative
  // error of the exact nearest-rank value (the histograms' relative_error, 0.195%).
  double percentile_relative_error = 0;
};

struct Record {
  std::string schema = kRecordSchema;
  std::string id;
  std::string started_at;  // UTC, ISO 8601
  std::string case_key;    // CaseKey() of the case's configuration (plan/case_spec.h)

  // Configuration.
  std::string model;     // model name
  std::string artifact;  // path of the file the target loaded
  int64_t artifact_bytes = 0;
  std::string artifact_sha256;  // empty when unknown (records of schema 1)
  std::string variant;          // the model variant (precision) of the artifact; empty: none named
  std::string scenario = "single-stream";
  std::string requested_target;  // as the user wrote it
  std::string effective_target;  // canonical, with every option the backend used
  std::string backend;
  std::string device;
  RunSettings requested_settings;
  RunSettings effective_settings;
  ShapeBindings dims;                      // --dim as given
  std::vector<std::string> dims_defaulted;  // free dimensions bound to 1 because no --dim named them
  std::vector<InputDescription> inputs;

  Environment environment;
  // This machine's limits as cached when the case ran (`edgebench devices --limits`); when absent,
  // machine_limits_missing says why. The roofline is derived from them.
  std::optional<MachineLimits> machine_limits;
  std::string machine_limits_missing;
  // A tensor model's work per query at the shapes it ran, counted from its file (or why not), and
  // the roofline derived from it, the summary and the machine's limits.
  std::optional<TensorWork> work;
  TensorRoofline tensor_roofline;

  // Outcome.
  CaseStatus status = CaseStatus::kOk;
  std::string failed_stage;  // "load", "prepare", "inputs", "run", "worker"
  std::string error;         // the runtime's message, with what edgebench knows around it
  int signal = 0;            // for kCrashed
  // What held of the worker's sandbox (docs/sandbox.md); absent when no worker answered (it died
  // first, or the case ran in the orchestrator's process).
  std::optional<SandboxReport> sandbox;

  // What ran.
  Placement placement;
  // --profile: per-operator times over the measured runs, or why there are none (the backend's
  // reason); neither when the case was not profiled.
  std::optional<OperatorProfile> operator_profile;
  std::string operator_profile_unavailable;

  // Latency decomposition (ns): loading (the runtime's session creation: parsing, optimising,
  // partitioning), making the input samples, binding shapes and allocating (prepare). The first
  // run (re-planning on first use) is warmup query 0, shown as `first_run` in the record.
  int64_t load_ns = 0;
  int64_t inputs_ns = 0;
  int64_t prepare_ns = 0;

  // Raw samples and what is computed from them. Issue times are ns after their phase's start;
  // empty issue times or streams: unknown (schema 1) or, for streams, all from stream 0.
  std::vector<int64_t> warmup_ns;
  std::vector<int64_t> warmup_issue_ns;
  std::vector<int64_t> measured_ns;
  std::vector<int64_t> measured_issue_ns;
  std::vector<int32_t> measured_stream;
  std::vector<int64_t> measured_service_ns;  // server: actual start to completion
  // A soak past the raw-sample cap (max_queries), or a server past kServerRawSampleCap: the
  // measured phase as histograms by window and stream with exact moments, and measured_ns,
  // measured_issue_ns, measured_stream and measured_service_ns empty (dropped whole, not a
  // biased prefix). Summary and windows then come from these.
  std::optional<HistogramSeries> measured_histograms;
  // A server past its cap: load.server comes from these totals (exact scalars, service and
  // start delay as histograms with exact moments).
  std::optional<ServerTotals> measured_server;
  int64_t not_issued = 0;                    // server: scheduled queries never issued
  // camera: per stream, the frames that arrived in the measured phase and those dropped unrun
  // (empty for other scenarios).
  std::vector<int64_t> frames_delivered;
  std::vector<int64_t> frames_dropped;
  int64_t measured_start_ns = 0;  // harness clock (steady, ns) at the measured phase's start
  int64_t measured_wall_ns = 0;
  std::string stop_reason;
  LatencySummary summary;
  std::optional<Settling> settling;
  std::optional<LoadRecord> load;  // tensor scenarios
  // Decided by other records of the same command (stored in the load section, not derived).
  std::optional<Inflation> load_inflation;
  std::optional<PeakAnswer> load_peak;

  std::optional<LlmRecord> llm;  // scenario "llm" only
  std::optional<AgreementRecord> agreement;  // scenario "agree" only
  std::optional<AccuracyRecord> accuracy;    // scenario "accuracy" only
  // Scenario "drift" only: one side of a tensor-by-tensor comparison (diagnose/candidate_drift.h).
  std::optional<TensorDriftRecord> tensor_drift;
  // Scenario "drift" on GGUF language models: one side, per-token KL divergence.
  std::optional<TokenDriftRecord> token_drift;
  // `edgebench tune`: the race, configuration and round the case measured (record/tune_tag.h);
  // absent outside a race.
  std::optional<TuneTag> tune;
  // --rounds: which round the case was and in what order its round ran (record/round_tag.h).
  std::optional<RoundTag> round;
  // A mix's workload (docs/mixes.md): which mix, which workload, alone or mixed.
  std::optional<MixTag> mix;
  // --start cold|warm|both: how the case started (record/start_record.h).
  std::optional<StartRecord> start;
  // A pipeline's case: what each stage cost (record/pipeline_record.h); absent for one model.
  std::optional<PipelineRecord> pipeline;
  // The device monitor (docs/monitoring.md): series sampled beside the case and what they show.
  std::optional<MonitorRecord> monitor;

  bool valid = false;
  std::vector<std::string> invalid_reasons;
  std::vector<std::string> notes;  // warnings that do not invalidate (runtime messages, coverage)

  // Not stored: what the reader found odd in a stored record (an older schema's gaps, a stored
  // verdict that differs from the recomputed one).
  std::vector<std::string> read_warnings;
};

// A fresh record id: time, process and a counter.
std::string NewRecordId();
std::string UtcNowIso8601();

}  // namespace edgebench
