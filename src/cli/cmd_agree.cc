// `edgebench agree MODEL --target T1,T2,...`: the same inputs through every target, each in a
// worker; each output compared with the reference target's (default: the first).
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/monitor_options.h"
#include "cli/mode_flags.h"
#include "core/strings.h"
#include "core/tensor_values.h"
#include "diagnose/target_agreement.h"
#include "inputs/image_input.h"
#include "postprocess/detection.h"
#include "record/json_numbers.h"
#include "record/record.h"
#include "report/store.h"
#include "runner/agree_mode.h"
#include "plan/pipeline_file.h"
#include "runner/run_plan.h"

namespace edgebench {
namespace {

// The command's own flags beside the options that decide what runs (plan/agree_plan.h).
struct AgreeCommandOptions {
  std::string model;
  std::string targets;
  std::string format = "table";
  std::string out_dir;
  AgreeOptions plan;
  ResumeFlags resume;
  MonitorFlags monitor;
};

std::string JoinComma(const std::vector<std::string>& targets) {
  std::string text;
  for (const std::string& t : targets) text += (text.empty() ? "" : ", ") + t;
  return text;
}

// Boxes and scores as the JSON report lists them, so a reader can see what was found.
nlohmann::json DetectionList(const std::vector<Tensor>& detections) {
  nlohmann::json list = nlohmann::json::array();
  const Tensor* boxes = nullptr;
  const Tensor* scores = nullptr;
  for (const Tensor& t : detections) {
    if (t.name == kDetectionBoxes) boxes = &t;
    if (t.name == kDetectionScores) scores = &t;
  }
  if (!boxes || !scores) return list;
  auto b = TensorValues(*boxes);
  auto s = TensorValues(*scores);
  if (!b.ok() || !s.ok() || b.value().size() != 4 * s.value().size()) return list;
  for (size_t i = 0; i < s.value().size(); ++i) {
    const double* box = b.value().data() + 4 * i;
    list.push_back({{"box", {Number(box[0]), Number(box[1]), Number(box[2]), Number(box[3])}},
                    {"score", Number(s.value()[i])}});
  }
  return list;
}

// The table's last column: the verdict, then each violation.
std::string ResultText(const std::vector<std::string>& violations) {
  return violations.empty() ? "PASS" : "FAIL; " + Join(violations, "; ");
}

std::string DetectionSummary(const DetectionAgreement& d) {
  std::string text = "matched " + std::to_string(d.matched) + ", unmatched " + std::to_string(d.unmatched_reference) +
                     "+" + std::to_string(d.unmatched_other);
  if (d.matched > 0) {
    text += ", corner max " + FormatNumberOrInf("%.3g", d.max_corner_error_px) + " px mean " + FormatNumberOrInf("%.3g", d.mean_corner_error_px) +
            ", score max " + FormatNumberOrInf("%.3g", d.max_score_diff);
    if (d.max_keypoint_error) text += ", keypoint max " + FormatNumberOrInf("%.3g", *d.max_keypoint_error);
  }
  return text;
}

// The rows of one target's record: printed (table) and added to the JSON report as it arrives.
class AgreeReport {
 public:
  AgreeReport(const AgreeCommandOptions& o, const AgreePlan& plan, nlohmann::json& report)
      : o_(o), plan_(plan), report_(report) {
    for (const PlannedCase& c : plan.cases) width_ = std::max(width_, c.spec.TargetText().size() + 2);
  }

  void Header() const {
    if (o_.format != "table") return;
    std::cout << std::left << std::setw(Width()) << "target" << std::setw(22) << "output" << std::setw(15) << "shape"
              << std::setw(11) << "max abs" << std::setw(11) << "mean abs" << std::setw(11) << "cosine"
              << std::setw(10) << "SQNR dB" << std::setw(6) << "top1" << std::setw(6) << "top5" << "result\n";
  }

  // One record: its rows, its JSON entry, and what it means for the exit status.
  void Add(const Record& r) {
    nlohmann::json entry = {{"target", r.requested_target}, {"outputs", nlohmann::json::array()}};
    auto note = [&](const std::string& status, const std::string& message) {
      entry["status"] = status;
      entry["error"] = message;
      if (o_.format == "table") std::cout << std::setw(Width()) << r.requested_target << status << ": " << message << "\n";
    };
    const auto found = plan_.outcomes->find(r.case_key);
    const AgreeOutcome* outcome = found == plan_.outcomes->end() ? nullptr : &found->second;
    if (outcome) {
      entry["artifact"] = outcome->artifact;
      entry["effective_target"] = outcome->effective_target;
    }
    const bool is_reference = r.requested_target == plan_.reference;
    if (r.status == CaseStatus::kSkipped) {
      note("skipped", r.error);
      skipped.push_back(r.requested_target);
      uncompared.push_back(r.requested_target + " skipped: " + r.error);
    } else if (outcome && outcome->is_reference && r.status == CaseStatus::kOk) {
      entry["status"] = "ok";
      for (const Tensor& t : outcome->reference_outputs) {
        entry["outputs"].push_back({{"name", t.name}, {"shape", t.shape}});
        if (o_.format == "table") {
          std::cout << std::setw(Width()) << r.requested_target << std::setw(22) << t.name.substr(0, 21) << std::setw(15)
                    << ShapeToString(t.shape) << "reference\n";
        }
      }
    } else if (outcome && outcome->comparison) {
      const TargetAgreement& c = *outcome->comparison;
      for (size_t i = 0; i < c.outputs.size(); ++i) AddOutput(r.requested_target, c.outputs[i], c.other_names[i], entry);
      if (c.detections) AddDetections(r.requested_target, *c.detections, entry);
      if (!c.error.empty()) {
        note("failed", c.error);
        uncompared.push_back(r.requested_target + ": " + c.error);
      } else {
        entry["status"] = "ok";
        ++compared;
      }
      if (!c.within_tolerance()) exit_code = 1;
    } else {
      note(CaseStatusName(r.status), r.failed_stage + ": " + r.error);
      if (!is_reference) uncompared.push_back(r.requested_target + " " + CaseStatusName(r.status) + " at " + r.failed_stage);
    }
    if (r.status != CaseStatus::kOk && r.status != CaseStatus::kSkipped) exit_code = 1;
    report_["targets"].push_back(entry);
  }

  int exit_code = 0;
  int compared = 0;                     // targets besides the reference with outputs compared
  std::vector<std::string> skipped;     // no artifact for them: shown, not a failure alone
  std::vector<std::string> uncompared;  // "target: why", for "nothing was compared"

 private:
  int Width() const { return static_cast<int>(width_); }

  void AddOutput(const std::string& target, const OutputAgreement& a, const std::string& other_name,
                 nlohmann::json& entry) const {
    const bool pass = a.violations.empty();
    entry["outputs"].push_back({{"name", a.output}, {"other_name", other_name}, {"shape", a.shape},
                                {"max_abs_error", Number(a.max_abs_error)},
                                {"mean_abs_error", Number(a.mean_abs_error)},
                                {"cosine", Number(a.cosine)}, {"sqnr_db", Number(a.sqnr_db)},
                                {"reference_nonfinite", a.reference_nonfinite},
                                {"other_nonfinite", a.other_nonfinite},
                                {"top1_agrees", a.top1_agrees ? nlohmann::json(*a.top1_agrees) : nlohmann::json(nullptr)},
                                {"top5_overlap", a.top5_overlap ? nlohmann::json(*a.top5_overlap) : nlohmann::json(nullptr)},
                                {"within_tolerance", pass}, {"violations", a.violations}});
    if (o_.format != "table") return;
    std::cout << std::setw(Width()) << target << std::setw(22) << a.output.substr(0, 21) << std::setw(15)
              << ShapeToString(a.shape) << std::setw(11) << FormatNumberOrInf("%.3g", a.max_abs_error) << std::setw(11)
              << FormatNumberOrInf("%.3g", a.mean_abs_error) << std::setw(11) << FormatNumberOrInf("%.6f", a.cosine)
              << std::setw(10) << FormatNumberOrInf("%.1f", a.sqnr_db) << std::setw(6)
              << (a.top1_agrees ? (*a.top1_agrees ? "yes" : "no") : "-") << std::setw(6)
              << (a.top5_overlap ? FormatNumberOrInf("%.1f", *a.top5_overlap) : "-") << ResultText(a.violations)
              << "\n";
  }

  void AddDetections(const std::string& target, const DetectionComparison& c, nlohmann::json& entry) const {
    const DetectionAgreement& d = c.agreement;
    const bool pass = d.violations.empty();
    entry["outputs"].push_back(
        {{"name", "detections"}, {"kind", "detections"},
         {"reference_count", d.reference_count}, {"other_count", d.other_count},
         {"matched", d.matched}, {"unmatched_reference", d.unmatched_reference},
         {"unmatched_other", d.unmatched_other}, {"min_matched_iou", Number(d.min_matched_iou)},
         {"max_corner_error_px", Number(d.max_corner_error_px)},
         {"mean_corner_error_px", Number(d.mean_corner_error_px)},
         {"max_score_diff", Number(d.max_score_diff)},
         {"max_keypoint_error", d.max_keypoint_error ? Number(*d.max_keypoint_error) : nlohmann::json(nullptr)},
         {"decoded_reference", c.decoded_reference},
         {"decoded_other", c.decoded_other},
         {"reference_detections", DetectionList(c.reference_detections)},
         {"other_detections", DetectionList(c.other_detections)},
         {"within_tolerance", pass}, {"violations", d.violations}});
    if (o_.format != "table") return;
    std::cout << std::setw(Width()) << target << std::setw(22) << "detections" << std::setw(15)
              << ("N " + std::to_string(d.reference_count) + "/" + std::to_string(d.other_count)) << std::setw(71)
              << DetectionSummary(d) + " " << ResultText(d.violations) << "\n";
  }

  const AgreeCommandOptions& o_;
  const AgreePlan& plan_;
  nlohmann::json& report_;
  size_t width_ = 30;  // the target column fits the longest target written, and at least 30
};

int Agree(const AgreeCommandOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench agree: " << message << "\n";
    return 2;
  };
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  // A pipeline file: every model stage on each target, one query each, the last stage's
  // outputs compared (a diffusion's image and final latents).
  std::optional<PipelineSpec> pipeline;
  if (IsPipelineFile(o.model)) {
    auto read = ReadPipelineFile(o.model);
    if (!read.ok()) return fail(read.error());
    pipeline = read.take();
  }
  auto model = pipeline ? Result<ModelSpec>(ModelSpec{}) : ParseModelArgument(o.model);
  if (!model.ok()) return fail(model.error());
  if (pipeline) model.value().name = pipeline->name;
  if (o.format != "table" && o.format != "json") return fail("--format must be table or json");
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());
  auto done_keys = ResumedCaseKeys(o.resume, o.out_dir, "agree");
  if (!done_keys.ok()) return fail(done_keys.error());
  const ModePlanContext plan_context{context.registry, monitor.value().settings, context.executable, WorkerLogArgs()};
  auto request = PlanAgreeRequest(o.plan, model.value(), targets.value(), pipeline ? &*pipeline : nullptr,
                                  plan_context);
  if (!request.ok()) return fail(request.error());
  auto plan = PlanAgreeCases(request.value(), context.registry);
  if (!plan.ok()) return fail(plan.error());
  const Tolerances& tolerances = plan.value().tolerances;

  nlohmann::json report = {{"schema", "edgebench.agreement/1"},
                           {"id", NewRecordId()},
                           {"started_at", UtcNowIso8601()},
                           {"model", model.value().name},
                           {"reference", plan.value().reference},
                           {"input", plan.value().input_description},
                           {"tolerances", {{"max_abs", tolerances.max_abs ? nlohmann::json(*tolerances.max_abs) : nlohmann::json(nullptr)},
                                           {"min_cosine", *tolerances.min_cosine},
                                           {"min_sqnr_db", *tolerances.min_sqnr_db}}},
                           {"targets", nlohmann::json::array()}};
  // Each target's comparison is also a record (scenario "agree") in DIR/results.jsonl, beside
  // the latency records, so drift and speed can be joined by model and target.
  std::optional<ResultStore> store;
  if (!o.out_dir.empty()) {
    auto opened = ResultStore::Open(o.out_dir);
    if (!opened.ok()) return fail(opened.error());
    store = opened.take();
  }
  AgreeReport rows(o, plan.value(), report);
  rows.Header();
  RunPlanOptions options;
  options.executable = context.executable;
  options.worker_args = WorkerLogArgs();
  options.done_keys = done_keys.value();
  options.cooldown = monitor.value().cooldown;
  options.sysfs_root = monitor.value().settings.sysfs_root;
  int stored = 0;
  const RunPlanTotals totals = RunPlanIntoStore(plan.value().cases, context.registry, options,
                                                store ? &*store : nullptr, "agree",
                                                [&](const Record& r) { rows.Add(r); }, stored);
  int exit_code = rows.exit_code;
  if (totals.store_errors > 0) exit_code = 1;
  std::vector<std::string> resumed;
  for (const PlannedCase& c : plan.value().cases) {
    if (done_keys.value().count(c.spec.case_key)) resumed.push_back(c.spec.TargetText());
  }
  if (!resumed.empty()) {
    std::cerr << "edgebench agree: " << resumed.size() << (resumed.size() == 1 ? " target" : " targets")
              << " already in the store, not run again (--resume): " << JoinComma(resumed) << "\n";
  }
  // Nothing compared is not agreement: a run whose other targets were all skipped or failed
  // says so and fails. A skipped target beside a real comparison does not fail, but is named.
  if (!totals.stopped.empty()) {
    std::cerr << "edgebench agree: " << totals.stopped << "\n";
    exit_code = 1;
  } else if (totals.interrupted_by == 0 && rows.compared == 0 && resumed.size() < 2) {
    std::cerr << "edgebench agree: nothing was compared: no target besides the reference "
              << plan.value().reference << " produced outputs to compare (" << JoinComma(rows.uncompared) << ")\n";
    exit_code = 1;
  } else if (!rows.skipped.empty()) {
    std::cerr << "edgebench agree: " << rows.skipped.size() << (rows.skipped.size() == 1 ? " target" : " targets")
              << " not compared (skipped): " << JoinComma(rows.skipped) << "\n";
  }
  report["compared_targets"] = rows.compared;
  report["skipped_targets"] = rows.skipped;
  report["resumed_targets"] = resumed;
  report["within_tolerance"] = exit_code == 0;
  if (o.format == "json") std::cout << report.dump(2) << "\n";
  if (store) {
    std::cerr << "edgebench: " << stored << (stored == 1 ? " record" : " records") << " appended to "
              << store->path() << "\n";
  }
  if (totals.interrupted_by != 0) return PlanExitCode(totals, "agree", false, o.out_dir);
  return exit_code;
}

}  // namespace

void AddAgreeCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<AgreeCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "agree", "run the same inputs through every target and compare outputs with a reference");
  cmd->footer(
      "Metrics per output against the reference: max and mean absolute error, cosine similarity, "
      "SQNR (dB), top-1/top-5 agreement for score vectors. Default tolerances: cosine >= 0.999, "
      "SQNR >= 30 dB; a manifest's tolerances or the flags override them.\n"
      "Any NaN or infinity in either output fails that output, whatever the tolerances; so does an "
      "output with no elements or with different element counts.\n"
      "Exit status: 0 when every target that ran is within tolerance, 1 when any is not or failed, "
      "or when nothing was compared (every target besides the reference skipped or failed), 2 for "
      "bad arguments (including a --preprocess resize too large for memory). A target skipped for "
      "want of an artifact, beside at least one compared target, does not change the status; it is "
      "shown as skipped and named on stderr.");
  cmd->add_option("model", o->model, "model: FILE, NAME=FILE1,FILE2[?layout=nchw|nhwc], or a manifest .json")
      ->required();
  cmd->add_option("-t,--target", o->targets, "comma-separated targets (at least two)")->required();
  AddModeFlags(cmd, o->plan);
  cmd->add_option("-f,--format", o->format, "table or json")->capture_default_str();
  cmd->add_option("-o,--out", o->out_dir,
                  "append one record per target (scenario \"agree\") to DIR/results.jsonl");
  AddResumeOptions(cmd, o->resume);
  AddMonitorOptions(cmd, o->monitor);
  cmd->callback([o, &context] { context.exit_code = Agree(*o, context); });
}

}  // namespace edgebench
