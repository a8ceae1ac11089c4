// Scenarios: how queries are issued to sessions (single-stream, llm; multi-stream, server,
// offline, soak and shapes later). A case resolves its target, loads the sessions a scenario
// asks for, prepares inputs, then runs the scenario once; the scenario owns the timing loop and
// the harness clock, and reports phase boundaries to observers, which is where announcers,
// device samplers and profilers attach (never inside the loop).
#pragma once

#include <memory>

#include "load/system_under_test.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "core/llm_types.h"
#include "load/llm_scenario.h"
#include "load/observer.h"
#include "load/scenario_spec.h"
#include "load/settings.h"
#include "stats/histogram_series.h"
#include "stats/server_histograms.h"

namespace edgebench {

// Per-query samples of one phase on the harness clock (steady, ns).
struct QuerySeries {
  std::vector<int64_t> latency_ns;  // issue to completion (server: scheduled arrival to completion)
  std::vector<int64_t> issue_ns;    // issue time (server: scheduled arrival), ns after the phase's start
  std::vector<int32_t> stream;      // stream (server: session) of each query; empty: all stream 0
  std::vector<int64_t> service_ns;  // server: actual start to completion; empty elsewhere
};

// What a scenario measured. Tensor scenarios fill warmup/measured; the LLM scenario fills llm.
struct ScenarioResult {
  QuerySeries warmup;
  QuerySeries measured;
  // A soak past the raw-sample cap (ClosedLoopPlan::histograms_beyond_cap): `measured` is then
  // empty, dropped whole rather than kept as a biased prefix, and the measured phase is these
  // histograms by completion window, per stream, with exact moments. Absent otherwise.
  std::optional<HistogramSeries> measured_histograms;
  // A server run past its raw-sample cap (ServerPlan::raw_sample_cap): `measured` is empty,
  // `measured_histograms` holds its latencies and this the rest of what SummarizeServer needs.
  std::optional<ServerTotals> measured_server;
  int64_t measured_start_ns = 0;  // harness clock at the start of the measured phase
  int64_t measured_wall_ns = 0;
  int64_t not_issued = 0;  // server: scheduled queries never issued (the run hit max_duration)
  // camera: per stream, the frames that arrived in the measured phase and those dropped unrun.
  std::vector<int64_t> frames_delivered;
  std::vector<int64_t> frames_dropped;
  std::string stop_reason;  // "min_queries_and_duration", "max_duration", "max_queries", "error"
  std::optional<LlmSamples> llm;
  Status error;              // the first failure, if any
  std::string failed_stage;  // where it failed ("run", "prefill", ...)
  int64_t failed_query = -1;  // 0-based over warmup + measured (of its stream)
  int failed_stream = -1;     // the stream whose query failed, for scenarios with streams
};

// What a scenario runs on. Tensor scenarios get `sessions` (sessions_needed() of them, prepared)
// and a pool of input sample sets cycled by the queries; the LLM scenario gets `llm`.
struct ScenarioContext {
  std::vector<Session*> sessions;
  // Where the queries go (load/system_under_test.h); unset: one model, `sessions` (SystemOf).
  SystemUnderTest* system = nullptr;
  std::unique_ptr<SystemUnderTest> sessions_system;  // SystemOf's, made once
  const std::vector<std::vector<Tensor>>* input_pool = nullptr;
  LlmSession* llm = nullptr;
  RunObserver* observer = nullptr;
  std::function<int64_t()> now;  // the harness clock; tests inject a fake one
};

// The system a scenario issues to: context.system, else a SessionSystem over context.sessions.
SystemUnderTest& SystemOf(ScenarioContext& context);

class Scenario {
 public:
  virtual ~Scenario() = default;
  virtual std::string name() const = 0;
  virtual SessionKind session_kind() const = 0;
  virtual int sessions_needed() const { return 1; }
  // Streams (or server/offline workers) issuing queries at once.
  virtual int streams() const { return 1; }
  // Several threads call Run on one session at once (--sessions shared): only for backends
  // whose Capabilities say it is safe.
  virtual bool needs_concurrent_runs() const { return false; }
  // The batch size the scenario binds on the inputs' first axis (offline --batch); 0: none.
  virtual int64_t batch() const { return 0; }
  virtual ScenarioResult Run(ScenarioContext& context) = 0;
};

// Scenario forms a case may ask for ("multi-stream:N", ...).
std::vector<std::string> ScenarioNames();

// The settings a scenario runs with, validated: soak:D runs exactly D (min and max duration D,
// min_queries 1); others as requested.
Result<EffectiveRunSettings> ValidateForScenario(const std::string& scenario, const RunSettings& requested);

// The scenario `name` with its settings validated; an error names the bad setting or lists the
// known scenarios.
Result<std::unique_ptr<Scenario>> MakeScenario(const std::string& name, const RunSettings& settings,
                                               const LlmSettings& llm);

}  // namespace edgebench
