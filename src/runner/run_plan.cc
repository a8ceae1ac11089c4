#include "runner/run_plan.h"

#include <unistd.h>

#include <cstdio>
#include <map>
#include <optional>

#include "core/clock.h"
#include "core/log.h"
#include "core/strings.h"
#include "load/peak_search.h"
#include "load/scenario_registry.h"
#include "load/scenario_spec.h"
#include "runner/case_mode.h"
#include "runner/interrupt.h"
#include "worker/run_case.h"
#include "runner/worker_process.h"
#include "load/case_kind.h"
#include "load/finish_record.h"

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
    phase_done_ = phase_total_ = 0;
    label_ = Label(spec);
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
    if (m.contains("progress") && m.contains("of") && m["progress"].is_number_integer() && m["of"].is_number_integer()) {
      phase_done_ = m["progress"].get<int64_t>();
      phase_total_ = m["of"].get<int64_t>();
    }
    if (m.contains("phase")) {
      phase_done_ = phase_total_ = 0;
      phase_start_ = NowNs();
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
      std::fprintf(stderr, "edgebench: case %d/%d: %s: %s%s after %s\n", index_ + 1, total_, label_.c_str(),
                   CaseStatusName(r.status).c_str(), Headline(r).c_str(), Seconds(took).c_str());
    }
  }

  // A case the plan skips for want of an artifact: a line of its own, never silence.
  void Skipped(int index, const CaseSpec& spec, const std::string& reason) {
    if (!enabled_) return;
    if (tty_) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "edgebench: case %d/%d: %s: skipped (%s)\n", index + 1, total_, Label(spec).c_str(),
                 reason.c_str());
  }

 private:
  static std::string Label(const CaseSpec& spec) {
    std::string label = spec.model + (spec.variant.empty() ? "" : " " + spec.variant) + " on " + spec.TargetText() +
                        (RulesOfScenario(spec.scenario).baseline ? "" : " (" + spec.scenario + ")");
    if (CaseKindOf(spec.scenario) == CaseKind::kLanguageModel) {
      label += spec.llm.vision() ? " " + std::to_string(spec.llm.images_per_request) + " image(s) + text"
                                 : " prompt " + std::to_string(spec.llm.prompt_tokens);
      label += " gen " + std::to_string(spec.llm.gen_tokens);
    }
    return label;
  }

  // What a finished mode's record found, in a few words (an accuracy pass's top-1).
  static std::string Headline(const Record& r) {
    if (r.status != CaseStatus::kOk) return r.failed_stage.empty() ? "" : " at " + r.failed_stage;
    if (r.accuracy) {
      return ", top-1 " + FormatPercent(r.accuracy->top1_accuracy.value, "%.2f");
    }
    if (r.token_drift && r.token_drift->drift) {
      char text[64];
      std::snprintf(text, sizeof text, ", mean KLD %.6f", r.token_drift->drift->mean_kld.value);
      return text;
    }
    if (r.tensor_drift && !r.tensor_drift->is_reference) {
      return r.tensor_drift->first_drift.empty() ? ", no tensor below " + FormatNumberOrInf("%g", r.tensor_drift->min_sqnr_db) + " dB"
                                                 : ", first drift at " + r.tensor_drift->first_drift;
    }
    if (r.agreement && !r.agreement->is_reference) {
      bool within = true;
      for (const OutputAgreement& a : r.agreement->outputs) within = within && a.violations.empty();
      return within ? ", within tolerance" : ", outside tolerance";
    }
    return "";
  }

  // What is left: of this case, from its own progress when it reports some (requests done in
  // its phase), else the average case so far; plus the average case for each case after it.
  std::string Eta() const {
    const int64_t now = NowNs();
    const int after = total_ - index_ - 1;
    const int64_t average = finished_ > 0 ? durations_ns_ / finished_ : 0;
    int64_t this_case = -1;
    if (phase_total_ > 0 && phase_done_ > 0 && stage_ == "measure") {
      this_case = (now - phase_start_) / phase_done_ * (phase_total_ - phase_done_);
    } else if (finished_ > 0) {
      this_case = std::max<int64_t>(0, average - (now - case_start_));
    }
    if (this_case < 0) return "";
    return ", ETA " + Seconds(this_case + average * after);
  }
  // "request 3/10" while a phase counts its requests.
  std::string Counter() const {
    if (phase_total_ <= 0) return "";
    return " request " + std::to_string(phase_done_) + "/" + std::to_string(phase_total_) + ",";
  }
  void Draw() {
    std::fprintf(stderr, "\r\033[Kedgebench: case %d/%d: %s: %s,%s %s%s", index_ + 1, total_, label_.c_str(),
                 stage_.c_str(), Counter().c_str(), Seconds(NowNs() - case_start_).c_str(), Eta().c_str());
    std::fflush(stderr);
  }

  bool enabled_;
  int total_;
  bool tty_;
  int index_ = 0;
  std::string label_;
  std::string stage_;
  int64_t case_start_ = 0;
  int64_t phase_start_ = 0;
  int64_t phase_done_ = 0;   // requests finished in the phase, when it counts them
  int64_t phase_total_ = 0;  // 0: it does not
  int64_t durations_ns_ = 0;
  int finished_ = 0;
};

// Latency under load against the same target's single-stream record of this plan.
std::optional<Inflation> CompareWithSingleStream(const Record& loaded, const Record& single) {
  const auto base_p50 = single.summary.Percentile(0.50);
  const auto p50 = loaded.summary.Percentile(0.50);
  if (!base_p50 || !p50 || *base_p50 <= 0) return std::nullopt;
  Inflation inflation;
  inflation.baseline_record_id = single.id;
  inflation.baseline_p50_ns = *base_p50;
  inflation.p50_ratio = static_cast<double>(*p50) / static_cast<double>(*base_p50);
  inflation.baseline_p99_ns = single.summary.Percentile(0.99);
  const auto p99 = loaded.summary.Percentile(0.99);
  if (inflation.baseline_p99_ns && p99 && *inflation.baseline_p99_ns > 0) {
    inflation.p99_ratio = static_cast<double>(*p99) / static_cast<double>(*inflation.baseline_p99_ns);
  }
  return inflation;
}

}  // namespace

RunPlanTotals RunPlan(const std::vector<PlannedCase>& plan, Registry& registry,
                      const RunPlanOptions& options, const std::function<bool(const Record&)>& sink) {
  RunPlanTotals totals;
  totals.cases = static_cast<int>(plan.size());
  Progress progress(options.progress, totals.cases);
  // This plan's single-stream records, by model and target, for the load scenarios' inflation.
  std::map<std::pair<std::string, std::string>, Record> single_stream;
  std::optional<Cooldown> cooldown;
  if (options.cooldown) {
    SensorRoots roots;
    roots.root = options.sysfs_root;
    cooldown.emplace(*options.cooldown, roots, nullptr, nullptr, [] { return InterruptSignal() != 0; });
    cooldown->ReadIdle();
  }
  int cases_run = 0;
  size_t plan_index = plan.size();  // the case being run, whose round tag its records carry
  auto run_one = [&](size_t i, const CaseSpec& spec, CaseMode* mode) {
    std::optional<CooldownResult> cooled;
    if (cooldown && cases_run > 0) {
      Log(LogLevel::kInfo, "cooling down before " + spec.model + " on " + spec.TargetText() + " (--cooldown " +
                               options.cooldown->text + ")");
      cooled = cooldown->Wait();
    } else if (cooldown) {
      cooled = CooldownResult{options.cooldown->text, "none", std::nullopt, std::nullopt, std::nullopt, 0, true,
                              "the first case: nothing ran before it"};
    }
    ++cases_run;
    progress.CaseStart(static_cast<int>(i), spec);
    Log(LogLevel::kInfo, "running " + spec.model + " (" + spec.artifact + ") on " + spec.TargetText());
    auto on_message = [&](const nlohmann::json& m) { progress.Message(m); };
    Record record = mode                 ? mode->Run(spec, on_message)
                    : options.in_process ? RunCase(spec, registry, [&](const std::string& stage) { on_message({{"stage", stage}}); })
                                         : RunCaseInWorker(options.executable, spec, registry, options.worker_args, on_message);
    progress.CaseEnd(record);
    if (cooled) {
      if (!record.monitor) {
        record.monitor = MonitorRecord{spec.monitor, "the worker ended before it reported its samples", {}, {},
                                       std::nullopt};
      }
      record.monitor->cooldown = cooled;
    }
    if (record.status == CaseStatus::kOk && record.load) {
      const auto key = std::make_pair(spec.model, spec.TargetText());
      if (RulesOfScenario(spec.scenario).baseline) {
        single_stream[key] = record;
      } else if (auto it = single_stream.find(key); it != single_stream.end()) {
        record.load_inflation = CompareWithSingleStream(record, it->second);
      }
    }
    return record;
  };
  auto count = [&](Record& record) {
    if (plan_index < plan.size()) record.round = plan[plan_index].round;
    if (!sink(record)) ++totals.store_errors;
    if (record.status == CaseStatus::kOk) {
      ++totals.measured;
      if (!record.valid) ++totals.invalid;
    } else if (record.status == CaseStatus::kSkipped) {
      ++totals.skipped;
    } else {
      ++totals.not_measured;
    }
  };
  for (size_t i = 0; i < plan.size(); ++i) {
    plan_index = i;
    if ((totals.interrupted_by = InterruptSignal()) != 0) break;
    const PlannedCase& planned = plan[i];
    const CaseSpec& spec = planned.spec;
    const int round = planned.round ? planned.round->round : 0;
    if (options.done_keys.count(RoundKey(spec.case_key, round))) {
      ++totals.resumed;
      Log(LogLevel::kInfo, "case " + std::to_string(i + 1) + ": " + spec.model + " on " + spec.TargetText() +
                               " already has a record (key " + RoundKey(spec.case_key, round) + "): skipped");
      continue;
    }
    Record record;
    if (!planned.skip_reason.empty()) {
      record = MakeBaseRecord(spec, registry);
      record.status = CaseStatus::kSkipped;
      record.failed_stage = "plan";
      record.error = planned.skip_reason;
      FinishRecord(record);
      progress.Skipped(static_cast<int>(i), spec, planned.skip_reason);
    } else if (planned.find_peak) {
      // Each step is its own case and record; a step's record is handed on once the next rate
      // is known, so the last one carries the answer.
      const auto start = ParseScenario(spec.scenario);
      PeakSearch search(start.ok() ? start.value().target_qps : 1.0);
      std::optional<Record> previous;
      while (auto next = search.NextRate()) {
        // The rate as it runs and as its name says; the search hears of this one.
        const double rate = RoundRate(*next);
        CaseSpec step = spec;
        step.scenario = "server:" + FormatRate(rate);
        // A step is a case of its own: its effective settings and key are its rate's.
        if (Status settled = SettleCase(step); !settled.ok()) {
          Record failed = MakeBaseRecord(step, registry);
          failed.status = CaseStatus::kFailed;
          failed.failed_stage = "settings";
          failed.error = settled.message();
          FinishRecord(failed);
          if (previous) count(*previous);
          previous = std::move(failed);
          break;
        }
        Record current = run_one(i, step, nullptr);
        if ((totals.interrupted_by = InterruptSignal()) != 0 && current.status != CaseStatus::kOk) break;
        if (previous) count(*previous);
        search.Report(rate, current.status == CaseStatus::kOk && current.valid);
        previous = std::move(current);
        if (previous->status != CaseStatus::kOk) break;  // a failing runtime ends the search
        if ((totals.interrupted_by = InterruptSignal()) != 0) break;
      }
      if (!previous) break;
      previous->load_peak = PeakAnswer{search.Peak(), spec.settings.p99_bound_ms, search.steps(), search.Explain()};
      if (previous->status != CaseStatus::kOk) {
        previous->load_peak->explanation = "stopped: the step at " + previous->scenario + " " +
                                           CaseStatusName(previous->status) + "; " + previous->load_peak->explanation;
      }
      FinishRecord(*previous);
      count(*previous);
      continue;
    } else {
      record = run_one(i, spec, planned.mode.get());
      // A case cut short by the interrupt measured nothing: no record, so --resume reruns it.
      if ((totals.interrupted_by = InterruptSignal()) != 0 && record.status != CaseStatus::kOk) break;
      if (planned.mode && !(totals.stopped = planned.mode->StopReason()).empty()) {
        count(record);
        break;
      }
    }
    count(record);
  }
  return totals;
}

RunPlanTotals RunPlanIntoStore(const std::vector<PlannedCase>& plan, Registry& registry, const RunPlanOptions& options,
                               ResultStore* store, const std::string& command,
                               const std::function<void(const Record&)>& show, int& appended) {
  InstallInterruptHandlers();
  appended = 0;
  return RunPlan(plan, registry, options, [&](const Record& r) {
    show(r);
    if (!store) return true;
    if (Status s = store->Append(r); !s.ok()) {
      std::fprintf(stderr, "edgebench %s: %s\n", command.c_str(), s.message().c_str());
      return false;
    }
    ++appended;
    return true;
  });
}

}  // namespace edgebench
