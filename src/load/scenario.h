// Scenarios: how queries are issued to sessions (single-stream, llm; multi-stream, server,
// offline, soak and shapes later). A case resolves its target, loads the sessions a scenario
// asks for, prepares inputs, then runs the scenario once; the scenario owns the timing loop and
// the harness clock, and reports phase boundaries to observers, which is where announcers,
// device samplers and profilers attach (never inside the loop).
#pragma once

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
#include "load/settings.h"

namespace edgebench {

// Per-query samples of one phase on the harness clock (steady, ns).
struct QuerySeries {
  std::vector<int64_t> latency_ns;  // issue to completion
  std::vector<int64_t> issue_ns;    // issue time, ns after the phase's start
  std::vector<int32_t> stream;      // stream of each query; empty: all from stream 0
};

// What a scenario measured. Tensor scenarios fill warmup/measured; the LLM scenario fills llm.
struct ScenarioResult {
  QuerySeries warmup;
  QuerySeries measured;
  int64_t measured_start_ns = 0;  // harness clock at the start of the measured phase
  int64_t measured_wall_ns = 0;
  std::string stop_reason;  // "min_queries_and_duration", "max_duration", "max_queries", "error"
  std::optional<LlmSamples> llm;
  Status error;              // the first failure, if any
  std::string failed_stage;  // where it failed ("run", "prefill", ...)
  int64_t failed_query = -1;  // 0-based over warmup + measured
};

// What a scenario runs on. Tensor scenarios get `sessions` (sessions_needed() of them, prepared)
// and a pool of input sample sets cycled by the queries; the LLM scenario gets `llm`.
struct ScenarioContext {
  std::vector<Session*> sessions;
  const std::vector<std::vector<Tensor>>* input_pool = nullptr;
  LlmSession* llm = nullptr;
  RunObserver* observer = nullptr;
  std::function<int64_t()> now;  // the harness clock; tests inject a fake one
};

class Scenario {
 public:
  virtual ~Scenario() = default;
  virtual std::string name() const = 0;
  virtual SessionKind session_kind() const = 0;
  virtual int sessions_needed() const { return 1; }
  virtual ScenarioResult Run(ScenarioContext& context) = 0;
};

// Scenario names a case may ask for.
std::vector<std::string> ScenarioNames();

// The scenario `name` with its settings validated; an error names the bad setting or lists the
// known scenarios.
Result<std::unique_ptr<Scenario>> MakeScenario(const std::string& name, const RunSettings& settings,
                                               const LlmSettings& llm);

}  // namespace edgebench
