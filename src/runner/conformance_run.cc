#include "runner/conformance_run.h"

#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <map>
#include <set>

#include "core/crash_note.h"
#include "core/environment.h"
#include "report/store.h"
#include "runner/interrupt.h"
#include "runner/worker_process.h"

namespace edgebench {

namespace {

// What one worker did: the runtime it named, the cells it sent, the case it was in when it ended.
struct ConformanceWorkerPass {
  std::optional<ConformanceRuntime> runtime;
  std::map<size_t, ConformanceCell> cells;
  std::optional<size_t> in_case;  // begun and not answered
  WorkerOutcome outcome;
};

ConformanceWorkerPass RunConformancePass(const ConformanceRunRequest& request, const std::vector<ConformanceCase>& cases,
                   const std::function<void(size_t, const ConformanceCell&)>& on_cell) {
  ConformanceRequest ask;
  ask.target = request.target;
  ask.cases_dir = request.cases_dir;
  ask.onnx_version = request.onnx_version;
  ask.cases = cases;
  ask.case_timeout_ms = request.case_timeout_ms;
  ConformanceWorkerPass pass;
  auto on_message = [&](const nlohmann::json& message) {
    if (message.contains("conformance_runtime")) {
      const auto& r = message.at("conformance_runtime");
      pass.runtime = ConformanceRuntime{r.value("target", ""), r.value("runtime", ""), r.value("version", ""),
                                        r.value("error", "")};
    } else if (message.contains("conformance_begin")) {
      pass.in_case = message.at("conformance_begin").get<size_t>();
    } else if (message.contains("conformance_cell")) {
      auto cell = ConformanceCellFromJson(message.at("conformance_cell"));
      const size_t index = message.value("case", size_t{0});
      if (cell.ok() && index < cases.size()) {
        pass.in_case.reset();
        pass.cells[index] = cell.value();
        if (on_cell) on_cell(index, cell.value());
      }
    }
  };
  // The worker ends itself past each case's limit; this backstop only catches a worker that
  // stops answering between cases.
  const int64_t backstop = request.case_timeout_ms > 0
                               ? request.case_timeout_ms * static_cast<int64_t>(cases.size() + 1) + 60000
                               : 0;
  WorkerWrap wrap;
  wrap.stderr_path = request.stderr_log.empty() ? "/dev/null" : request.stderr_log;
  wrap.stderr_append = true;
  pass.outcome = RunWorker(request.executable, ConformanceRequestToJson(ask), backstop, {}, on_message,
                           request.memory_limit_mb ? request.memory_limit_mb : DefaultCaseMemoryMb(), &wrap);
  return pass;
}

// The cell of a case its worker did not survive.
ConformanceCell ConformanceDiedCell(ConformanceCell cell, const WorkerOutcome& outcome, int64_t timeout_ms) {
  if (outcome.signal == SIGALRM || outcome.status == CaseStatus::kTimeout) {
    cell.state = ConformanceState::kTimeout;
    cell.detail = "no answer within " + std::to_string(timeout_ms) + " ms; the worker was ended (raise --timeout "
                  "if the case is this slow)";
  } else {
    cell.state = ConformanceState::kCrashed;
    cell.detail = outcome.signal ? "the worker died on " + SignalText(outcome.signal) : outcome.message;
    if (outcome.status == CaseStatus::kOom) cell.detail = outcome.message;
  }
  return cell;
}

}  // namespace

ConformanceSummary SummarizeConformance(const ConformanceRuntime& runtime, const std::string& onnx_version,
                                        const std::string& ops, const std::vector<ConformanceCell>& cells) {
  ConformanceSummary summary;
  summary.target = runtime.target;
  summary.runtime = runtime.runtime;
  summary.runtime_version = runtime.version;
  summary.onnx_version = onnx_version;
  summary.ops = ops;
  for (ConformanceState state : AllConformanceStates()) summary.states[ConformanceStateName(state)] = 0;
  for (const ConformanceCell& cell : cells) {
    ++summary.states[ConformanceStateName(cell.state)];
    if (cell.state == ConformanceState::kPass && cell.fell_back) ++summary.fell_back;
  }
  const Environment environment = ReadEnvironment();
  summary.host = environment.host.empty() ? environment.hostname : environment.host;
  summary.edgebench_version = environment.edgebench_version;
  return summary;
}

ConformanceRunOutcome RunConformanceTarget(const ConformanceRunRequest& request) {
  ConformanceRunOutcome result;
  // The runtime first, from a worker given no case: resuming needs its version.
  ConformanceWorkerPass probe = RunConformancePass(request, {}, {});
  if (!probe.runtime) {
    result.runtime.target = request.target;
    result.runtime.error = "the worker ended before naming its runtime: " + probe.outcome.message;
    return result;
  }
  result.runtime = *probe.runtime;
  if (!result.runtime.error.empty()) return result;
  const ConformanceRuntime& runtime = result.runtime;

  std::map<std::string, ConformanceCell> stored;
  if (!request.store_path.empty() && std::filesystem::exists(request.store_path)) {
    auto store = ReadConformanceStore(request.store_path);
    if (!store.ok()) {
      result.warnings.push_back(store.error());
    } else {
      result.warnings = store.value().warnings;
      for (const ConformanceCell& cell : store.value().cells) {
        if (cell.target == runtime.target && cell.runtime_version == runtime.version &&
            cell.onnx_version == request.onnx_version) {
          stored[cell.case_name] = cell;
        }
      }
    }
  }
  const size_t total = request.cases.size();
  std::vector<std::optional<ConformanceCell>> cells(total);
  size_t done = 0;
  bool store_failed = false;
  auto keep = [&](size_t index, const ConformanceCell& cell, bool from_store) {
    cells[index] = cell;
    ++done;
    if (!from_store && !request.store_path.empty() && !store_failed) {
      std::string warning;
      Status appended = AppendJsonLine(request.store_path, ConformanceCellToJson(cell), &warning);
      if (!warning.empty()) result.warnings.push_back(warning);
      if (!appended.ok()) {
        store_failed = true;
        result.warnings.push_back("cannot append to " + request.store_path + ": " + appended.message() +
                                  "; the cells from here on are printed only");
      }
    }
    if (request.on_cell) request.on_cell(cell, done, total);
  };
  std::vector<size_t> to_run;
  for (size_t i = 0; i < total; ++i) {
    const ConformanceCase& c = request.cases[i];
    if (auto it = stored.find(c.name); it != stored.end()) {
      keep(i, it->second, true);
      ++result.resumed;
    } else if (!c.untestable.empty()) {
      ConformanceCell cell = BlankConformanceCell(c, runtime, request.onnx_version);
      cell.state = ConformanceState::kUntestable;
      cell.detail = c.untestable;
      keep(i, cell, false);
    } else {
      to_run.push_back(i);
    }
  }
  size_t next = 0;
  while (next < to_run.size()) {
    std::vector<ConformanceCase> batch;
    for (size_t k = next; k < to_run.size(); ++k) batch.push_back(request.cases[to_run[k]]);
    ConformanceWorkerPass pass = RunConformancePass(request, batch, [&](size_t index, const ConformanceCell& cell) {
      keep(to_run[next + index], cell, false);
    });
    if ((result.interrupted_by = InterruptSignal()) != 0) break;
    size_t answered_until = next;
    for (const auto& [index, cell] : pass.cells) answered_until = std::max(answered_until, next + index + 1);
    if (pass.outcome.result) break;  // every case answered
    if (!pass.in_case) {
      // The worker died between cases or before the first: the next case cannot be blamed.
      if (pass.cells.empty()) {
        ConformanceCell cell = BlankConformanceCell(request.cases[to_run[next]], runtime, request.onnx_version);
        cell = ConformanceDiedCell(cell, pass.outcome, request.case_timeout_ms);
        cell.detail = "the worker ended before the case began: " + pass.outcome.message;
        keep(to_run[next], cell, false);
        answered_until = next + 1;
      }
      next = answered_until;
      continue;
    }
    const size_t died_in = next + *pass.in_case;
    const ConformanceCase& c = request.cases[to_run[died_in]];
    keep(to_run[died_in], ConformanceDiedCell(BlankConformanceCell(c, runtime, request.onnx_version), pass.outcome,
                                   request.case_timeout_ms),
         false);
    next = died_in + 1;
  }
  for (auto& cell : cells) {
    if (cell) result.cells.push_back(*cell);
  }
  if (!request.store_path.empty() && !store_failed && result.interrupted_by == 0) {
    std::string warning;
    Status appended = AppendJsonLine(
        request.store_path,
        ConformanceSummaryToJson(SummarizeConformance(runtime, request.onnx_version, request.ops, result.cells)),
        &warning);
    if (!appended.ok()) result.warnings.push_back("cannot append the summary to " + request.store_path);
  }
  return result;
}

}  // namespace edgebench
