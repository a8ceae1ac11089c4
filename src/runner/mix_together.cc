#include "runner/mix_together.h"

#include <algorithm>
#include <csignal>
#include <optional>

#include "core/crash_note.h"
#include "core/strings.h"
#include "load/settings.h"
#include "load/finish_record.h"
#include "runner/worker_process.h"
#include "worker/together_cases.h"

namespace edgebench {
namespace {

std::string Names(const std::vector<TogetherWorkload>& workloads) {
  std::vector<std::string> names;
  for (const TogetherWorkload& w : workloads) names.push_back(w.name);
  return Join(names, ", ");
}

}  // namespace

TogetherOutcome RunWorkloadsTogether(const std::string& executable, const std::vector<TogetherWorkload>& workloads,
                                     const Registry& registry, const std::string& stderr_path) {
  nlohmann::json request = {{"mode", "together"}, {"cases", nlohmann::json::array()}};
  int64_t timeout_ms = 0, memory_mb = 0;
  for (const TogetherWorkload& w : workloads) {
    request["cases"].push_back(CaseSpecToJson(w.spec));
    auto effective = EffectiveSettingsOf(w.spec);
    const RunSettings& settings = effective.ok() ? effective.value() : w.spec.settings;
    // The process runs them side by side: the longest one's time, and every one's memory.
    timeout_ms = std::max(timeout_ms, settings.case_timeout_ms);
    memory_mb += settings.case_memory_mb ? settings.case_memory_mb : DefaultCaseMemoryMb();
  }
  memory_mb = std::min(memory_mb, DefaultCaseMemoryMb());
  std::vector<std::optional<Record>> ended(workloads.size());
  std::vector<std::string> stages(workloads.size());
  std::vector<std::string> unreadable(workloads.size());
  int crashed = -1;
  auto on_message = [&](const nlohmann::json& m) {
    if (m.contains("crashed_thread") && m.at("crashed_thread").is_string()) {
      crashed = TogetherCaseOfThread(m.at("crashed_thread").get<std::string>());
      return;
    }
    if (!m.contains("case") || !m.at("case").is_number_unsigned()) return;
    const size_t i = m.at("case").get<size_t>();
    if (i >= workloads.size()) return;
    if (m.contains("stage") && m.at("stage").is_string()) stages[i] = m.at("stage").get<std::string>();
    if (m.contains("case_result")) {
      auto record = RecordFromJson(m.at("case_result"));
      if (record.ok()) {
        ended[i] = record.take();
      } else {
        unreadable[i] = record.error();
      }
    }
  };
  WorkerWrap wrap;
  wrap.stderr_path = stderr_path;
  const WorkerOutcome outcome = RunWorker(executable, request, timeout_ms, {}, on_message, memory_mb, &wrap);
  TogetherOutcome result;
  if (crashed >= 0 && static_cast<size_t>(crashed) < workloads.size()) result.crashed_workload = workloads[crashed].name;
  const bool died = !outcome.result;
  result.exit_code = died ? (outcome.signal ? 128 + outcome.signal : 1) : 0;
  for (size_t i = 0; i < workloads.size(); ++i) {
    const TogetherWorkload& w = workloads[i];
    if (ended[i]) {
      if (!outcome.after_result.empty()) ended[i]->notes.push_back(outcome.after_result);
      result.records.push_back(std::move(*ended[i]));
      continue;
    }
    if (!unreadable[i].empty()) {
      result.records.push_back(WorkerDiedRecord(w.spec, registry, CaseStatus::kFailed, "worker",
                                                "the shared worker's record was unreadable: " + unreadable[i], 0));
      continue;
    }
    std::string how;
    if (outcome.status == CaseStatus::kCrashed && outcome.signal) {
      how = "the shared worker (isolation: together, workloads " + Names(workloads) + ") died on " +
            SignalText(outcome.signal);
      if (result.crashed_workload == w.name) {
        how += ": this workload's thread (or one it started) crashed, and took the process and every workload in "
               "it down";
      } else if (!result.crashed_workload.empty()) {
        how += " when the thread of workload '" + result.crashed_workload + "' crashed; this one was lost with it";
      } else {
        how += "; which workload's thread crashed is not known (no thread of theirs wrote its note: a runtime's "
               "own thread, or a kill from outside); this one was lost with it";
      }
    } else if (outcome.result) {
      how = "the shared worker ended without this workload's record";
    } else {
      how = "the shared worker (isolation: together, workloads " + Names(workloads) + ") ended: " + outcome.message;
    }
    const CaseStatus status = outcome.result ? CaseStatus::kFailed : outcome.status;
    result.records.push_back(
        WorkerDiedRecord(w.spec, registry, status, stages[i].empty() ? "worker" : stages[i], how, outcome.signal));
  }
  return result;
}

}  // namespace edgebench
