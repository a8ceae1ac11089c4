// Crash isolation: each case runs in a child process (`edgebench worker`), which reads a JSON
// request on stdin and writes JSON lines on stdout as it goes: {"stage": ...} as each stage
// starts, {"phase": ..., "expected_ms": ...} and {"phase_end": ...} around the scenario's
// phases, then {"result": ...} and {"released": true}. Every message reaches the caller's
// on_message as it arrives (progress, and later monitors' windows). The worker dies with the
// orchestrator (parent-death signal). A segfault, abort, hang or out-of-memory kill in a runtime becomes a
// result with status crashed or timeout, dated to its stage, and the run goes on.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "load/settings.h"
#include "record/record.h"
#include "plan/case_spec.h"
#include "worker/intermediates_case.h"
#include "worker/accuracy_case.h"
#include "worker/outputs_case.h"

namespace edgebench {

// How a worker ended, whatever it was asked to do.
struct WorkerOutcome {
  std::optional<nlohmann::json> result;  // set when the worker finished and answered
  bool released = false;                 // the worker also released its runtimes cleanly
  std::string after_result;              // what went wrong after the answer, if anything
  CaseStatus status = CaseStatus::kOk;   // kCrashed, kTimeout or kFailed when no result
  std::string stage;                     // the last stage the worker announced
  std::string message;                   // what happened, for people
  int signal = 0;
};

// Called with each message the worker sends, as it arrives.
using WorkerMessageCallback = std::function<void(const nlohmann::json& message)>;

// What runs beside a worker (--leak-sites' heaptrack): entries for the worker's environment,
// given its scratch directory, and what to do once it has ended, before that directory goes.
struct WorkerWrap {
  std::function<std::vector<std::string>(const std::string& scratch)> environment;
  std::function<void(const std::string& scratch, const WorkerOutcome& outcome)> after;
  std::string stderr_path;  // non-empty: the worker's stderr goes to this file
  bool stderr_append = false;  // appended to rather than replaced (several workers, one log)
};

// `memory_limit_mb` (0: none): the worker's resident memory is sampled every 50 ms; over the
// limit it is killed and the outcome is kOom with the peak seen.
WorkerOutcome RunWorker(const std::string& executable, const nlohmann::json& request,
                        int64_t timeout_ms, const std::vector<std::string>& extra_args = {},
                        const WorkerMessageCallback& on_message = {}, int64_t memory_limit_mb = 0,
                        const WorkerWrap* wrap = nullptr);

// The answer of a worker mode (outputs, intermediates, accuracy, token logits) read with
// `from_json`; when the worker died or its answer cannot be read, `failed` (which names the
// artifact and target) with how it ended. Result: a type with status, stage and error.
template <typename Result, typename FromJson>
Result AnswerOf(const WorkerOutcome& outcome, FromJson from_json, Result failed) {
  if (outcome.result) {
    auto result = from_json(*outcome.result);
    if (result.ok()) return result.take();
    failed.status = "failed";
    failed.stage = "worker";
    failed.error = "the worker's answer was unreadable: " + result.error();
    return failed;
  }
  failed.status = CaseStatusName(outcome.status);
  failed.stage = outcome.stage.empty() ? "worker" : outcome.stage;
  failed.error = outcome.message;
  return failed;
}

// A mode's request (outputs, accuracy, ...) with the device monitor beside it: the worker samples
// from its start to its end and answers the series beside its result.
nlohmann::json RequestWithMonitor(nlohmann::json request, const MonitorSettings& monitor);
// The monitor section of a mode's answer: the worker's series, or, when it died first or was
// asked for none, a section that says why there are no samples.
std::optional<MonitorRecord> AnswerMonitor(const WorkerOutcome& outcome, const MonitorSettings& asked);

// A mode's request in a worker (`memory_limit_mb` 0: DefaultCaseMemoryMb()): its answer read
// with `from_json`, else `failed` with how the worker ended (AnswerOf). With `monitor`, the worker
// samples the device beside the request (RequestWithMonitor); `outcome`, when given, receives how
// the worker ended (its signal, its monitor series: AnswerMonitor).
template <typename Result, typename FromJson>
Result AskWorker(const std::string& executable, nlohmann::json request, int64_t timeout_ms,
                 const std::vector<std::string>& extra_args, int64_t memory_limit_mb,
                 const WorkerMessageCallback& on_message, FromJson from_json, Result failed,
                 const MonitorSettings* monitor = nullptr, WorkerOutcome* outcome = nullptr) {
  if (monitor) request = RequestWithMonitor(std::move(request), *monitor);
  WorkerOutcome ended = RunWorker(executable, request, timeout_ms, extra_args, on_message,
                                  memory_limit_mb ? memory_limit_mb : DefaultCaseMemoryMb());
  Result result = AnswerOf(ended, from_json, std::move(failed));
  if (outcome) *outcome = std::move(ended);
  return result;
}

// A measurement case in a worker: its record, or a crashed/timeout/failed record.
Record RunCaseInWorker(const std::string& executable, const CaseSpec& spec,
                       const Registry& registry, const std::vector<std::string>& extra_args = {},
                       const WorkerMessageCallback& on_message = {});

// The record of a case whose worker died or answered nothing readable: `error` says how.
Record WorkerDiedRecord(const CaseSpec& spec, const Registry& registry, CaseStatus status, const std::string& stage,
                        const std::string& error, int signal);

// Set to a file path, a worker writes its /proc/self/maps there after its case (a debugging aid,
// and how the tests check that a worker maps only its case's runtime).
inline constexpr const char kDebugWorkerMapsVariable[] = "EDGEBENCH_DEBUG_WORKER_MAPS";

// The child's side: reads the request from stdin, runs it, writes the protocol to `protocol_fd`.
int WorkerMain(Registry& registry, int protocol_fd);

}  // namespace edgebench
