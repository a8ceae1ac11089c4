#include "runner/run_plan.h"

#include <unistd.h>

#include <cstdio>

#include "core/clock.h"
#include "core/log.h"
#include "runner/interrupt.h"
#include "runner/run_case.h"
#include "runner/worker_process.h"

namespace edgebench {
namespace {

std::string Seconds(int64_t ns) {
  const int64_t s = ns / 1'000'000'000;
  if (s < 60) return std::to_string(s) + " s";
  return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
}

// Progress of a plan on stderr: on a terminal one line rewritten in place (case, stage, elapsed,
// ETA); otherwise a line as each case starts and ends.
class Progress {
 public:
  Progress(bool enabled, int total) : enabled_(enabled), total_(total), tty_(::isatty(STDERR_FILENO)) {}

  void CaseStart(int index, const CaseSpec& spec) {
    index_ = index;
    label_ = spec.model + " on " + spec.target + (spec.scenario == "single-stream" ? "" : " (" + spec.scenario + ")");
    if (spec.scenario == "llm") {
      label_ += " prompt " + std::to_string(spec.llm.prompt_tokens) + " gen " + std::to_string(spec.llm.gen_tokens);
    }
    case_start_ = NowNs();
    stage_ = "starting";
    if (!enabled_) return;
    if (tty_) {
      Draw();
    } else {
      std::fprintf(stderr, "edgebench: case %d/%d: %s%s\n", index_ + 1, total_, label_.c_str(), Eta().c_str());
    }
  }

  void Message(const nlohmann::json& m) {
    if (m.contains("stage")) stage_ = m["stage"].get<std::string>();
    if (m.contains("phase")) {
      stage_ = m["phase"].get<std::string>();
      const int64_t expected = m.value("expected_ms", int64_t{0});
      Log(LogLevel::kInfo, label_ + ": " + stage_ + (expected > 0 ? " (at most " + Seconds(expected * 1'000'000) + ")" : ""));
    }
    if (enabled_ && tty_) Draw();
  }

  void CaseEnd(const Record& r) {
    const int64_t took = NowNs() - case_start_;
    durations_ns_ += took;
    ++finished_;
    if (!enabled_) return;
    if (tty_) std::fprintf(stderr, "\r\033[K");
    if (!tty_ || total_ > 1) {
      std::fprintf(stderr, "edgebench: case %d/%d: %s: %s after %s\n", index_ + 1, total_, label_.c_str(),
                   CaseStatusName(r.status).c_str(), Seconds(took).c_str());
    }
  }

 private:
  std::string Eta() const {
    if (finished_ == 0) return "";
    const int remaining = total_ - index_;
    return ", ETA " + Seconds(durations_ns_ / finished_ * remaining);
  }
  void Draw() {
    std::fprintf(stderr, "\r\033[Kedgebench: case %d/%d: %s: %s, %s%s", index_ + 1, total_, label_.c_str(),
                 stage_.c_str(), Seconds(NowNs() - case_start_).c_str(), Eta().c_str());
    std::fflush(stderr);
  }

  bool enabled_;
  int total_;
  bool tty_;
  int index_ = 0;
  std::string label_;
  std::string stage_;
  int64_t case_start_ = 0;
  int64_t durations_ns_ = 0;
  int finished_ = 0;
};

}  // namespace

RunPlanTotals RunPlan(const std::vector<PlannedCase>& plan, Registry& registry,
                      const RunPlanOptions& options, const std::function<bool(const Record&)>& sink) {
  RunPlanTotals totals;
  totals.cases = static_cast<int>(plan.size());
  Progress progress(options.progress, totals.cases);
  for (size_t i = 0; i < plan.size(); ++i) {
    if ((totals.interrupted_by = InterruptSignal()) != 0) break;
    const PlannedCase& planned = plan[i];
    const CaseSpec& spec = planned.spec;
    if (options.done_keys.count(spec.case_key)) {
      ++totals.resumed;
      Log(LogLevel::kInfo, "case " + std::to_string(i + 1) + ": " + spec.model + " on " + spec.target +
                               " already has a record (key " + spec.case_key + "): skipped");
      continue;
    }
    Record record;
    if (!planned.skip_reason.empty()) {
      record = MakeBaseRecord(spec, registry);
      record.status = CaseStatus::kSkipped;
      record.failed_stage = "plan";
      record.error = planned.skip_reason;
      FinishRecord(record);
    } else {
      progress.CaseStart(static_cast<int>(i), spec);
      Log(LogLevel::kInfo, "running " + spec.model + " (" + spec.artifact + ") on " + spec.target);
      auto on_message = [&](const nlohmann::json& m) { progress.Message(m); };
      record = options.in_process
                   ? RunCase(spec, registry, [&](const std::string& stage) { on_message({{"stage", stage}}); })
                   : RunCaseInWorker(options.executable, spec, registry, options.worker_args, on_message);
      progress.CaseEnd(record);
      // A case cut short by the interrupt measured nothing: no record, so --resume reruns it.
      if ((totals.interrupted_by = InterruptSignal()) != 0 && record.status != CaseStatus::kOk) break;
    }
    if (!sink(record)) ++totals.store_errors;
    if (record.status == CaseStatus::kOk) {
      ++totals.measured;
      if (!record.valid) ++totals.invalid;
    } else if (record.status == CaseStatus::kSkipped) {
      ++totals.skipped;
    } else {
      ++totals.not_measured;
    }
  }
  return totals;
}

}  // namespace edgebench
