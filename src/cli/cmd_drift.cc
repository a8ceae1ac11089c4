// `edgebench drift MODEL --reference fp32 --candidate int8-qdq-minmax-c100 --target ort:cpu`:
// where a candidate (a quantized variant, another artifact) starts to differ from a reference.
// Both run the same samples, each in its own worker that writes every intermediate tensor to a
// file in a temporary directory (worker/intermediates_case.h); the tensors are matched by name
// and compared here, file against file (diagnose/drift.h). docs/drift.md says how to read it.
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/token_drift_command.h"
#include "core/log.h"
#include "core/strings.h"
#include "diagnose/drift.h"
#include "inputs/image_input.h"
#include "inputs/input_source.h"
#include "inputs/labelled_images.h"
#include "record/json_numbers.h"
#include "record/record.h"
#include "cli/monitor_options.h"
#include "cli/mode_flags.h"
#include "diagnose/candidate_drift.h"
#include "record/record_drift.h"
#include "report/store.h"
#include "runner/drift_mode.h"
#include "plan/model_spec.h"
#include "plan/plan.h"
#include "runner/run_plan.h"

namespace edgebench {
namespace {

// The command's own flags beside the options that decide what runs (plan/drift_plan.h).
struct DriftCommandOptions {
  std::string model;
  std::string target;  // empty: ort:cpu, or llamacpp:cpu for GGUF models
  std::string candidate_target;  // GGUF: where the candidates run; empty: --target
  std::string format = "table";
  // A store: a record per side; GGUF: also one JSON line per candidate in token_drift.jsonl.
  std::string out_store;
  DriftOptions plan;
  ResumeFlags resume;
  MonitorFlags monitor;
};

// A name cut to `width` characters keeping its end, where converters put the layer's own name
// ("...torch.nn.modules.conv.Conv2d_conv3;1"): "..." and the last width - 3 characters.
std::string Tail(const std::string& name, size_t width) {
  if (name.size() <= width) return name;
  return "..." + name.substr(name.size() - (width - 3));
}

// A candidate's block of the table: its tensors, what they show, and what exposure changed.
void PrintCandidate(const Record& r, const std::string& candidate_artifact, std::ostream& out) {
  const TensorDriftRecord& d = *r.tensor_drift;
  out << r.model << ": " << d.reference_label << " vs " << d.candidate_label << " on " << r.effective_target << ", "
      << d.samples << " samples (" << Join(d.inputs, "; ") << ")\n";
  out << "  reference " << d.reference_artifact << "\n  candidate " << candidate_artifact << "\n";
  if (d.intermediates_unsupported.empty()) {
    out << std::left << "  " << std::setw(4) << "" << std::setw(30) << "tensor" << std::setw(20) << "node"
        << std::setw(20) << "op" << std::setw(14) << "shape" << std::setw(9) << "SQNR dB" << std::setw(9) << "drop dB"
        << std::setw(10) << "cosine" << std::setw(11) << "max abs" << "candidate tensor\n";
    for (const TensorDriftRow& row : d.tensors) {
      const bool low = row.compared && !(row.sqnr_db >= d.min_sqnr_db);
      out << "  " << std::setw(4) << (low ? "<" : "") << std::setw(30) << Tail(row.reference_name, 29) << std::setw(20)
          << Tail(row.node, 19) << std::setw(20) << Tail(row.op_type, 19) << std::setw(14) << ShapeToString(row.shape);
      if (!row.compared) {
        out << "skipped: " << row.skip_reason << "\n";
        continue;
      }
      out << std::setw(9) << FormatNumberOrInf("%.1f", row.sqnr_db) << std::setw(9)
          << (row.drop_db ? FormatNumberOrInf("%.1f", *row.drop_db) : "-") << std::setw(10)
          << FormatNumberOrInf("%.6f", row.cosine) << std::setw(11) << FormatNumberOrInf("%.3g", row.max_abs_error)
          << (row.candidate_name == row.reference_name ? "" : row.candidate_name) << "\n";
    }
    std::string only_ops;
    for (const auto& [op, count] : d.candidate_only_ops) {
      only_ops += (only_ops.empty() ? "" : ", ") + op + " " + std::to_string(count);
    }
    out << "  matched " << d.matched << " tensors (" << d.skipped << " skipped); reference-only "
        << d.reference_only.size() << "; candidate-only " << d.candidate_only.size()
        << (only_ops.empty() ? "" : " (" + only_ops + ")") << "\n";
  }
  out << "  " << Join(d.findings, "; ") << "\n";
  if (d.exposure_changed_output) {
    out << "  exposing the intermediates "
        << (!*d.exposure_changed_output ? std::string("left the candidate's final output unchanged")
            : d.exposure_output_sqnr_db && *d.exposure_output_sqnr_db >= kExposureRoundingOnlyDb
                ? "changed the candidate's final output by float rounding only (" + d.exposure_text +
                      "): runtimes fuse differently when inner values are outputs"
                : "CHANGED the candidate's final output (" + d.exposure_text +
                      "): the rows above are of the model as run with them exposed")
        << "\n";
  }
  for (const std::string& e : d.errors) out << "  error: " << e << "\n";
  out << "\n";
}

int RunDrift(const DriftCommandOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench drift: " << message << "\n";
    return 2;
  };
  if (o.format != "table" && o.format != "json") return fail("--format must be table or json");
  std::optional<ModelSpec> model;
  if (!o.model.empty()) {
    auto parsed = ParseModelArgument(o.model);
    if (!parsed.ok()) return fail(parsed.error());
    model = parsed.take();
  }
  // GGUF language models: drift there is the KL divergence of next-token distributions
  // (plan/token_drift_plan.h), not tensors by name.
  const bool gguf = DriftOnLanguageModels(o.plan, model);
  auto targets = ParseTargetList(!o.target.empty() ? o.target : gguf ? "llamacpp:cpu" : "ort:cpu");
  if (!targets.ok()) return fail(targets.error());
  if (targets.value().size() != 1) return fail("--target: drift runs on one target; give one");
  const Target& target = targets.value().front();
  auto sides = ResolveDriftSides(o.plan, model, target, context.registry);
  if (!sides.ok()) return fail(sides.error());
  const DriftSide& reference = sides.value().reference;
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());
  auto done_keys = ResumedCaseKeys(o.resume, o.out_store, "drift");
  if (!done_keys.ok()) return fail(done_keys.error());
  const ModePlanContext plan_context{context.registry, monitor.value().settings, context.executable, WorkerLogArgs()};
  std::optional<Target> candidate_target;
  if (!o.candidate_target.empty()) {
    if (!gguf) {
      return fail("--candidate-target: GGUF language models only so far (a tensor drift runs both sides on --target)");
    }
    auto parsed = ParseTargetList(o.candidate_target);
    if (!parsed.ok()) return fail(parsed.error());
    if (parsed.value().size() != 1) return fail("--candidate-target: one target");
    candidate_target = parsed.value().front();
  }
  if (gguf) {
    TokenDriftOptions t = TokenDriftOptionsOf(o.plan, sides.value(), target, plan_context);
    t.candidate_target = candidate_target;
    t.format = o.format;
    t.out_store = o.out_store;
    t.cooldown = monitor.value().cooldown;
    t.done_keys = done_keys.value();
    return RunTokenDrift(t, context);
  }
  auto request = PlanTensorDriftRequest(o.plan, model, target, sides.value(), plan_context);
  if (!request.ok()) return fail(request.error());
  const int64_t samples =
      request.value().data.source.empty() ? o.plan.samples : static_cast<int64_t>(request.value().labels.size());
  auto planned = PlanDriftCases(request.value(), context.registry);
  if (!planned.ok()) return fail(planned.error());
  const std::vector<PlannedCase>& cases = planned.value();
  std::optional<ResultStore> store;
  if (!o.out_store.empty()) {
    auto opened = ResultStore::Open(o.out_store);
    if (!opened.ok()) return fail(opened.error());
    store = opened.take();
  }

  nlohmann::json report = {{"schema", "edgebench.drift/1"},
                           {"started_at", UtcNowIso8601()},
                           {"model", model ? model->name : std::filesystem::path(reference.artifact).stem().string()},
                           {"target", target.text},
                           {"reference", {{"label", reference.label},
                                          {"artifact", reference.artifact},
                                          {"status", done_keys.value().count(cases[0].spec.case_key) ? "in the store" : "not run"}}},
                           {"samples", samples},
                           {"inputs", nlohmann::json::array()},
                           {"min_sqnr_db", o.plan.min_sqnr_db},
                           {"candidates", nlohmann::json::array()}};
  int exit_code = 0;
  int stored = 0;
  // Each side's record as it comes: the reference's fills the report's head, a candidate's is
  // printed and listed.
  auto show = [&](const Record& r) {
    const TensorDriftRecord* d = r.tensor_drift ? &*r.tensor_drift : nullptr;
    if (d && d->is_reference) {
      report["reference"]["status"] = CaseStatusName(r.status);
      if (r.status != CaseStatus::kOk) return;
      report["inputs"] = d->inputs;
      if (!d->intermediates_unsupported.empty()) report["reference"]["intermediates_unsupported"] = d->intermediates_unsupported;
      return;
    }
    nlohmann::json entry = {{"label", d ? d->candidate_label : r.variant}, {"artifact", r.artifact}};
    if (r.status != CaseStatus::kOk) {
      const bool not_comparable = d && !d->not_comparable.empty();
      entry["status"] = not_comparable ? "not comparable" : CaseStatusName(r.status);
      entry["error"] = not_comparable ? r.error : r.failed_stage + ": " + r.error;
      std::cerr << "edgebench drift: candidate " << entry["label"].get<std::string>()
                << (not_comparable ? ": " + r.error : " " + CaseStatusName(r.status) + " at " + r.failed_stage + ": " + r.error)
                << "\n";
      exit_code = std::max(exit_code, not_comparable ? 2 : 1);
      report["candidates"].push_back(entry);
      return;
    }
    entry.update(TensorDriftToJson(*d));
    entry["label"] = d->candidate_label;
    entry["status"] = "ok";
    entry["effective_target"] = r.effective_target;
    entry["summary"] = Join(d->findings, "; ");
    if (!d->top1) {
      entry.erase("top1");
      entry.erase("top1_delta_points");
    }
    if (d->reference_top1) report["reference"]["top1"] = *d->reference_top1;
    if (report["inputs"].empty()) report["inputs"] = d->inputs;
    if (!d->errors.empty()) exit_code = std::max(exit_code, 1);
    report["candidates"].push_back(entry);
    if (o.format == "table") PrintCandidate(r, r.artifact, std::cout);
  };
  RunPlanOptions options;
  options.executable = context.executable;
  options.worker_args = WorkerLogArgs();
  options.done_keys = done_keys.value();
  options.cooldown = monitor.value().cooldown;
  options.sysfs_root = monitor.value().settings.sysfs_root;
  const RunPlanTotals totals =
      RunPlanIntoStore(cases, context.registry, options, store ? &*store : nullptr, "drift", show, stored);
  if (!totals.stopped.empty()) {
    std::cerr << "edgebench drift: " << totals.stopped << "\n";
    exit_code = std::max(exit_code, 1);
  }
  if (totals.store_errors > 0) exit_code = std::max(exit_code, 1);
  if (totals.resumed > 0) {
    std::cerr << "edgebench drift: " << totals.resumed << (totals.resumed == 1 ? " side" : " sides")
              << " already in the store, not run again (--resume)\n";
  }
  if (o.format == "json") std::cout << report.dump(2) << "\n";
  if (store) {
    std::cerr << "edgebench: " << stored << (stored == 1 ? " record" : " records") << " appended to " << store->path()
              << "\n";
  }
  if (totals.interrupted_by != 0) return PlanExitCode(totals, "drift", false, o.out_store);
  return exit_code;
}

}  // namespace

void AddDriftCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<DriftCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "drift", "find where a candidate (a quantized variant) starts to differ from a reference, tensor by tensor");
  cmd->footer(
      "Runs the reference and each candidate on the same samples, each in a worker with every "
      "intermediate tensor exposed, matches the tensors by name (QDQ copies included: docs/drift.md) "
      "and reports per tensor, in graph order, SQNR and cosine over all samples and the largest "
      "absolute error; then the first tensor under --min-sqnr and the largest drop. The candidate "
      "also runs without exposure, to show whether exposing changed its output.\n"
      "Exit status: 0 when every side ran and was compared, 1 when a side failed or a comparison "
      "could not be made, 2 for bad arguments, a candidate whose inputs differ in shape from the reference's "
      "included (no verdict is given on other inputs).");
  cmd->add_option("model", o->model, "the model whose variants --reference and --candidate name (optional with files)");
  AddModeFlags(cmd, o->plan);
  cmd->add_option("-t,--target", o->target, "where both run (one target; default ort:cpu, llamacpp:cpu for GGUF)");
  cmd->add_option("--candidate-target", o->candidate_target,
                  "GGUF: where the candidates run, the reference staying on --target (an accelerator's drift "
                  "against the CPU: the same file as reference and candidate)");
  cmd->add_option("-f,--format", o->format, "table or json")->capture_default_str();
  cmd->add_option("-o,--out", o->out_store,
                  "append one record per side (scenario \"drift\") to DIR/results.jsonl; GGUF: one JSON line per "
                  "candidate to DIR/token_drift.jsonl")
      ->check(NonEmpty());
  AddResumeOptions(cmd, o->resume);
  AddMonitorOptions(cmd, o->monitor);
  cmd->callback([o, &context] { context.exit_code = RunDrift(*o, context); });
}

}  // namespace edgebench
