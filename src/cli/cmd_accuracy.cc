// `edgebench accuracy MODEL --data DATASET --target T1,T2 [--variant V1,V2|all]`: a labelled
// image set through every variant x target, each pass in its own worker process; top-1 and
// top-5 with 95% Wilson intervals, per class, and the time spent preprocessing and inferring.
// Records (scenario "accuracy") appended to DIR/results.jsonl with --out (docs/accuracy.md).
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/mode_flags.h"
#include "core/log.h"
#include "core/sha256.h"
#include "core/clock.h"
#include "core/strings.h"
#include "inputs/image_input.h"
#include "inputs/labelled_images.h"
#include "metrics/metrics.h"
#include "record/record.h"
#include "record/record_json.h"
#include "report/store.h"
#include "cli/monitor_options.h"
#include "runner/accuracy_mode.h"
#include "plan/plan.h"
#include "plan/resolve_target.h"
#include "runner/resume.h"
#include "runner/run_plan.h"

namespace edgebench {
namespace {

// The command's own flags beside the options that decide what runs (plan/accuracy_plan.h).
struct AccuracyCommandOptions {
  std::string model;
  std::string targets = "ort:cpu";
  std::string format = "table";
  std::string out_dir;
  AccuracyOptions plan;
  ResumeFlags resume;
  MonitorFlags monitor;
};

// One variant x target pass and what became of it (this run's record, or the store's when
// --resume skipped it).
struct AccuracyRow {
  std::string variant;
  std::string target;
  Record record;
};

std::string Percent(double share) { return FormatNumber("%.2f", 100 * share); }

std::string Micros(const LatencySummary& s, double p) {
  const auto v = s.Percentile(p);
  return v ? FormatNumber("%.1f", static_cast<double>(*v) / 1e3) : "-";
}

std::string Millis(const LatencySummary& s, double p) {
  const auto v = s.Percentile(p);
  return v ? FormatNumber("%.3f", static_cast<double>(*v) / 1e6) : "-";
}

// The device monitor's findings beside each pass, as `run`'s columns show them.
const MonitorDerived* Derived(const Record& r) {
  return r.monitor && r.monitor->disabled_reason.empty() ? &r.monitor->derived : nullptr;
}

std::string PeakRssMib(const Record& r) {
  const auto mib = Derived(r) ? MetricValue("peak_rss_mib", r) : std::nullopt;
  return mib ? FormatNumber("%.1f", *mib) : "-";
}

std::string DeviceFlags(const Record& r) {
  const MonitorDerived* d = Derived(r);
  if (!d) return r.monitor ? "not sampled" : "-";
  std::string flags;
  if (!d->throttling.empty()) flags = "throttled x" + std::to_string(d->throttling.size());
  if (d->memory.leak) flags += std::string(flags.empty() ? "" : ", ") + "leak";
  return flags.empty() ? "-" : flags;
}

void PrintTable(const std::vector<AccuracyRow>& rows, std::ostream& out) {
  size_t variant_width = 8, target_width = 7;
  for (const AccuracyRow& row : rows) {
    variant_width = std::max(variant_width, row.variant.size() + 2);
    target_width = std::max(target_width, row.target.size() + 2);
  }
  out << std::left << std::setw(4) << "#" << std::setw(static_cast<int>(variant_width)) << "variant"
      << std::setw(static_cast<int>(target_width)) << "target" << std::right << std::setw(7) << "images"
      << std::setw(26) << "top-1 [95% CI] %" << std::setw(9) << "top-5 %" << std::setw(10) << "vs ref"
      << std::setw(13) << "prep p50 us" << std::setw(13) << "infer p50 ms" << std::setw(15) << "peak RSS MiB"
      << "  device\n";
  // The reference of each target: its first variant that ran.
  std::map<std::string, const AccuracyRecord*> reference;
  for (size_t i = 0; i < rows.size(); ++i) {
    const AccuracyRow& row = rows[i];
    out << std::left << std::setw(4) << (i + 1) << std::setw(static_cast<int>(variant_width))
        << (row.variant.empty() ? "-" : row.variant) << std::setw(static_cast<int>(target_width))
        << row.target << std::right;
    const Record& r = row.record;
    if (r.status != CaseStatus::kOk || !r.accuracy) {
      out << "  " << CaseStatusName(r.status) << (r.failed_stage.empty() ? "" : " at " + r.failed_stage) << ": "
          << r.error << "\n";
      continue;
    }
    const AccuracyRecord& a = *r.accuracy;
    const std::string key = row.target;
    std::string delta = "ref";
    if (auto it = reference.find(key); it != reference.end()) {
      delta = FormatNumber("%+.2f", 100 * (a.top1_accuracy.value - it->second->top1_accuracy.value));
    } else {
      reference[key] = &a;
    }
    const std::string top1 = Percent(a.top1_accuracy.value) + " [" + Percent(a.top1_accuracy.low) + ", " +
                             Percent(a.top1_accuracy.high) + "]";
    out << std::setw(7) << a.labels.size() << std::setw(26) << top1 << std::setw(9)
        << (a.top5_accuracy ? Percent(a.top5_accuracy->value) : "-") << std::setw(10) << delta << std::setw(13)
        << Micros(a.preprocess_summary, 0.5) << std::setw(13) << Millis(a.inference_summary, 0.5) << std::setw(15)
        << PeakRssMib(r) << "  " << DeviceFlags(r) << "\n";
  }
  // Per class: a column per row that ran, numbered as above.
  std::vector<size_t> ran;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].record.status == CaseStatus::kOk && rows[i].record.accuracy) ran.push_back(i);
  }
  if (ran.empty()) return;
  const AccuracyRecord& first = *rows[ran.front()].record.accuracy;
  size_t name_width = 8;
  for (const ClassAccuracy& c : first.per_class) name_width = std::max(name_width, c.name.size() + 6);
  out << "\nper-class top-1 %\n" << std::left << std::setw(static_cast<int>(name_width)) << "class" << std::right
      << std::setw(8) << "images";
  for (size_t i : ran) out << std::setw(8) << ("#" + std::to_string(i + 1));
  out << "\n";
  for (size_t c = 0; c < first.per_class.size(); ++c) {
    const ClassAccuracy& k = first.per_class[c];
    out << std::left << std::setw(static_cast<int>(name_width))
        << (std::to_string(k.label) + (k.name.empty() ? "" : " " + k.name)) << std::right << std::setw(8) << k.images;
    for (size_t i : ran) {
      const auto& per_class = rows[i].record.accuracy->per_class;
      out << std::setw(8) << (c < per_class.size() && per_class[c].images ? Percent(per_class[c].top1) : "-");
    }
    out << "\n";
  }
}

int Accuracy(const AccuracyCommandOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench accuracy: " << message << "\n";
    return 2;
  };
  if (o.format != "table" && o.format != "json") return fail("--format must be table or json");
  auto model = ParseModelArgument(o.model);
  if (!model.ok()) return fail(model.error());
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());
  auto done_keys = ResumedCaseKeys(o.resume, o.out_dir, "accuracy");
  if (!done_keys.ok()) return fail(done_keys.error());
  const ModePlanContext plan_context{context.registry, monitor.value().settings, context.executable, WorkerLogArgs()};
  auto request = PlanAccuracyRequest(o.plan, model.value(), targets.value(), plan_context);
  if (!request.ok()) return fail(request.error());
  const int64_t images = request.value().images;
  auto planned = PlanAccuracyCases(request.value(), context.registry);
  if (!planned.ok()) return fail(planned.error());
  const std::vector<PlannedCase>& cases = planned.value();
  std::cerr << "edgebench accuracy: " << cases.size() << (cases.size() == 1 ? " pass" : " passes") << " of "
            << images << " images"
            << (done_keys.value().empty() ? "" : ", the store's records of earlier passes kept (--resume)")
            << "\n";

  // Each pass's record is stored as soon as it exists (a killed command loses no finished pass);
  // the table is printed at the end, the passes --resume skipped taken from the store.
  std::optional<ResultStore> store;
  if (!o.out_dir.empty()) {
    auto opened = ResultStore::Open(o.out_dir);
    if (!opened.ok()) return fail(opened.error());
    store = opened.take();
  }
  RunPlanOptions options;
  options.executable = context.executable;
  options.worker_args = WorkerLogArgs();
  options.done_keys = done_keys.value();
  options.cooldown = monitor.value().cooldown;
  options.sysfs_root = monitor.value().settings.sysfs_root;
  std::map<std::string, Record> by_key;
  int stored = 0;
  const RunPlanTotals totals = RunPlanIntoStore(cases, context.registry, options, store ? &*store : nullptr,
                                                "accuracy", [&](const Record& r) { by_key[r.case_key] = r; }, stored);
  if (store && totals.resumed > 0) AddStoredRecords(store->path(), done_keys.value(), by_key);
  std::vector<AccuracyRow> rows;
  for (const PlannedCase& c : cases) {
    auto it = by_key.find(c.spec.case_key);
    if (it != by_key.end()) rows.push_back({c.spec.variant, c.spec.TargetText(), it->second});
  }
  int exit_code = 0;
  if (totals.not_measured > 0 || totals.store_errors > 0) exit_code = 1;
  if (o.format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const AccuracyRow& row : rows) list.push_back(RecordToJson(row.record));
    std::cout << list.dump(2) << "\n";
  } else {
    PrintTable(rows, std::cout);
  }
  const bool any_ran = std::any_of(rows.begin(), rows.end(), [](const AccuracyRow& row) {
    return row.record.status == CaseStatus::kOk;
  });
  if (!any_ran && totals.interrupted_by == 0) {
    std::cerr << "edgebench accuracy: nothing ran: every variant x target was skipped or failed\n";
    exit_code = 1;
  }
  if (store) {
    std::cerr << "edgebench: " << stored << (stored == 1 ? " record" : " records") << " appended to " << store->path()
              << "\n";
  }
  if (totals.interrupted_by != 0) return PlanExitCode(totals, "accuracy", false, o.out_dir);
  return exit_code;
}

}  // namespace

void AddAccuracyCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<AccuracyCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "accuracy", "top-1/top-5 accuracy of a classifier's variants on a labelled image set, per target");
  cmd->footer(
      "Each variant x target runs in its own worker, which reads the data set itself. Top-1 and top-5 "
      "(with 5 classes or more) come with a 95% Wilson score interval; `vs ref` is the top-1 difference in "
      "points from the first variant on the same target. A variant with no artifact a target reads is a "
      "skipped row. See docs/accuracy.md.\n"
      "Exit status: 0 when every pass that was not skipped ran, 1 when any failed, crashed, timed out or "
      "was unavailable, or nothing ran, 2 for bad arguments (a missing preprocess or data set, a corrupt "
      "IDX file).");
  cmd->add_option("model", o->model, "model: FILE, NAME=FILE1?variant=V,FILE2?variant=W, or a manifest .json")
      ->required();
  cmd->add_option("-t,--target", o->targets, "comma-separated targets")->capture_default_str();
  AddModeFlags(cmd, o->plan);
  cmd->add_option("-f,--format", o->format, "table or json (the records)")->capture_default_str();
  cmd->add_option("-o,--out", o->out_dir, "append one record per pass (scenario \"accuracy\") to DIR/results.jsonl")
      ->check(NonEmpty());
  AddResumeOptions(cmd, o->resume);
  AddMonitorOptions(cmd, o->monitor);
  cmd->callback([o, &context] { context.exit_code = Accuracy(*o, context); });
}

}  // namespace edgebench
