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
#include "cli/suite_modes.h"
#include "diagnose/candidate_drift.h"
#include "record/record_drift.h"
#include "report/store.h"
#include "runner/drift_mode.h"
#include "plan/model_spec.h"
#include "plan/plan.h"
#include "runner/run_plan.h"

namespace edgebench {
namespace {

// 30 dB: the noise is a thousandth of the signal's power (cosine about 0.9995). A healthy int8
// tensor is at 35-45 dB (8 bits give at most ~48 dB, less for tensors with outliers), and the
// error a well-quantized network accumulates keeps its tensors above 30 dB; under 20 dB a layer
// is visibly wrong. It is also `agree`'s default for outputs, so one number means one thing.
constexpr double kDefaultMinSqnrDb = 30.0;

struct DriftOptions {
  std::string model;
  std::string reference;
  std::string candidates;
  std::string target;  // empty: ort:cpu, or llamacpp:cpu for GGUF models
  std::vector<std::string> dims;
  std::vector<std::string> inputs;
  uint64_t seed = 0;
  int64_t samples = 16;
  double min_sqnr_db = kDefaultMinSqnrDb;
  std::string format = "table";
  int64_t timeout_ms = 600000;
  // GGUF language models only (cli/token_drift_command.h).
  std::string prompts_file;
  int64_t random_prompts = 0;
  int64_t max_tokens = 128;
  std::string out_store;
  // A labelled data set instead of seeded inputs (inputs/labelled_images.h); --samples images.
  std::string data;
  std::string split = "test";
  int64_t offset = 0;
  std::string preprocess;  // default: the manifest's
  ResumeFlags resume;
  MonitorFlags monitor;
};

using Side = DriftSide;

Result<Side> ResolveSide(const std::optional<ModelSpec>& model, const std::string& text, const Target& target,
                         const Registry& registry) {
  if (model) {
    const std::vector<std::string> variants = ModelVariants(*model);
    if (std::find(variants.begin(), variants.end(), text) != variants.end()) {
      auto selected = SelectVariant(*model, text);
      if (!selected.ok()) return selected.status();
      const PlannedTarget planned = PlanTargets(selected.value(), {target}, registry).front();
      if (!planned.artifact) {
        return Status::Error("variant '" + text + "' has no artifact for " + target.text + ": " + planned.skip_reason);
      }
      return Side{text, planned.artifact->path, text, planned.artifact->layout};
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(text, ec)) {
      return Status::Error("'" + text + "' is neither a variant of " + model->name + " (" +
                           (variants.empty() ? std::string("it has none") : "variants: " + Join(variants, ", ")) +
                           ") nor an artifact file");
    }
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(text, ec)) {
    return Status::Error("'" + text + "' is not an artifact file (give MODEL to name variants)");
  }
  return Side{text, text, "", Layout::kAny};
}

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

// What `drift` runs on tensor models, planned from its flags: for the command, and for a suite's
// `drift:` block (the same flags, the same checks). An error is a bad argument.
struct DriftCommandPlan {
  std::vector<PlannedCase> cases;
  int64_t samples = 0;
};

Result<DriftCommandPlan> PlanTensorDriftCommand(const DriftOptions& o, const std::optional<ModelSpec>& model,
                                                const Target& target, const Side& reference,
                                                const std::vector<Side>& candidates, const MonitorSettings& monitor,
                                                CommandContext& context) {
  if (o.samples < 1) return Status::Error("--samples must be at least 1");
  ShapeBindings dims;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, dims); !s.ok()) return s;
  }
  if (!o.prompts_file.empty() || o.random_prompts != 0) {
    return Status::Error("--prompts and --random-prompts are for GGUF language models");
  }
  // The input source: seeded values or files (inputs/input_source.h), or a labelled data set, the
  // same for every side.
  InputOptions inputs{o.inputs, o.samples, o.seed};
  if (Status s = ValidateInputOptions(inputs); !s.ok()) return s;
  DataSetSpec data;
  std::string preprocess;
  std::vector<int32_t> labels;
  if (!o.data.empty()) {
    if (!o.inputs.empty()) return Status::Error("--data and --input are two input sources: give one");
    data = DataSetSpec{o.data, o.split, o.samples, o.offset};
    preprocess = !o.preprocess.empty() ? o.preprocess : model ? model->preprocess : "";
    if (preprocess.empty()) {
      return Status::Error("--data needs the images' preprocessing: the model's manifest declares none; give "
                           "--preprocess (e.g. scale=0.0039215686,mean=0.2860,std=0.3530,layout=nchw)");
    }
    if (auto parsed = ParseImagePreprocess(preprocess); !parsed.ok()) {
      return Status::Error("--preprocess: " + parsed.error());
    }
    auto images = LoadLabelledImages(data);
    if (!images.ok()) return Status::Error("--data: " + images.error());
    labels = images.value().labels;
  } else if (!o.preprocess.empty() || o.offset != 0) {
    return Status::Error("--preprocess and --offset are for --data");
  }
  DriftPlanRequest request;
  request.model = model ? model->name : std::filesystem::path(reference.artifact).stem().string();
  request.reference = reference;
  request.candidates = candidates;
  request.target = target;
  request.dims = dims;
  request.inputs = inputs;
  request.data = data;
  request.preprocess = preprocess;
  request.labels = labels;
  request.min_sqnr_db = o.min_sqnr_db;
  request.timeout_ms = o.timeout_ms;
  request.monitor = monitor;
  request.executable = context.executable;
  request.worker_args = WorkerLogArgs();
  auto cases = PlanDriftCases(request, context.registry);
  if (!cases.ok()) return cases.status();
  return DriftCommandPlan{cases.take(), o.data.empty() ? o.samples : static_cast<int64_t>(labels.size())};
}

// The reference and candidates a drift's flags name, resolved on the model and target; an
// error names the flag.
Result<std::pair<Side, std::vector<Side>>> ResolveSides(const DriftOptions& o, const std::optional<ModelSpec>& model,
                                                         const Target& target, const Registry& registry) {
  auto reference = ResolveSide(model, o.reference, target, registry);
  if (!reference.ok()) return Status::Error("--reference: " + reference.error());
  std::vector<Side> candidates;
  for (const std::string& text : SplitList(o.candidates)) {
    auto side = ResolveSide(model, text, target, registry);
    if (!side.ok()) return Status::Error("--candidate: " + side.error());
    candidates.push_back(side.take());
  }
  return std::make_pair(reference.take(), std::move(candidates));
}

// What drift of GGUF language models runs with (cli/token_drift_command.h), from the command's or
// a suite block's flags: the sides, the target, the prompts, the seed and the workers' limits.
TokenDriftOptions TokenDriftOptionsOf(const DriftOptions& o, const Side& reference, const std::vector<Side>& candidates,
                                      const std::string& target) {
  TokenDriftOptions t;
  t.reference = reference.artifact;
  for (const Side& side : candidates) t.candidates.push_back(side.artifact);
  t.target = target;
  t.prompts_file = o.prompts_file;
  t.random_prompts = o.random_prompts;
  t.max_tokens = o.max_tokens;
  t.seed = o.seed;
  t.timeout_ms = o.timeout_ms;
  t.worker_args = WorkerLogArgs();
  return t;
}

int RunDrift(const DriftOptions& o, CommandContext& context) {
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
  // (cli/token_drift_command.h), not tensors by name.
  bool gguf = EndsWith(o.reference, ".gguf");
  if (model) {
    gguf = std::all_of(model->artifacts.begin(), model->artifacts.end(),
                       [](const ArtifactSpec& a) { return EndsWith(a.path, ".gguf"); });
  }
  const std::string target_text = !o.target.empty() ? o.target : gguf ? "llamacpp:cpu" : "ort:cpu";
  auto target = ParseTarget(target_text);
  if (!target.ok()) return fail(target.error());
  auto sides_named = ResolveSides(o, model, target.value(), context.registry);
  if (!sides_named.ok()) return fail(sides_named.error());
  const Result<Side> reference = sides_named.value().first;
  const std::vector<Side>& candidates = sides_named.value().second;
  std::vector<const Side*> sides = {&reference.value()};
  for (const Side& side : candidates) sides.push_back(&side);
  for (const Side* side : sides) {
    if (EndsWith(side->artifact, ".gguf") != gguf) {
      return fail("'" + side->artifact + "' " + (gguf ? "is not a GGUF language model, " : "is a GGUF language model, ") +
                  "and '" + reference.value().artifact + "' " + (gguf ? "is" : "is not") +
                  ": drift compares language models with language models and tensor models with tensor models");
    }
  }
  if (gguf) {
    TokenDriftOptions t = TokenDriftOptionsOf(o, reference.value(), candidates, target_text);
    t.format = o.format;
    t.out_store = o.out_store;
    auto monitor = CheckMonitorFlags(o.monitor);
    if (!monitor.ok()) return fail(monitor.error());
    auto done_keys = ResumedCaseKeys(o.resume, o.out_store, "drift");
    if (!done_keys.ok()) return fail(done_keys.error());
    t.monitor = monitor.value().settings;
    t.cooldown = monitor.value().cooldown;
    t.done_keys = done_keys.value();
    return RunTokenDrift(t, context);
  }
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());
  auto done_keys = ResumedCaseKeys(o.resume, o.out_store, "drift");
  if (!done_keys.ok()) return fail(done_keys.error());
  auto planned = PlanTensorDriftCommand(o, model, target.value(), reference.value(), candidates,
                                        monitor.value().settings, context);
  if (!planned.ok()) return fail(planned.error());
  const std::vector<PlannedCase>& cases = planned.value().cases;
  std::optional<ResultStore> store;
  if (!o.out_store.empty()) {
    auto opened = ResultStore::Open(o.out_store);
    if (!opened.ok()) return fail(opened.error());
    store = opened.take();
  }

  nlohmann::json report = {{"schema", "edgebench.drift/1"},
                           {"started_at", UtcNowIso8601()},
                           {"model", model ? model->name : std::filesystem::path(reference.value().artifact).stem().string()},
                           {"target", target.value().text},
                           {"reference", {{"label", reference.value().label},
                                          {"artifact", reference.value().artifact},
                                          {"status", done_keys.value().count(cases[0].spec.case_key) ? "in the store" : "not run"}}},
                           {"samples", planned.value().samples},
                           {"inputs", nlohmann::json::array()},
                           {"min_sqnr_db", o.min_sqnr_db},
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
  if (totals.interrupted_by != 0) return PlanExitCode(totals, "drift");
  return exit_code;
}

// The flags that decide what `drift` computes: the command's and a suite's `drift:` block's.
void AddDriftPlanOptions(CLI::App* cmd, DriftOptions& o) {
  cmd->add_option("--reference", o.reference, "a variant of MODEL, or an artifact file")->required();
  cmd->add_option("--candidate", o.candidates, "variants or artifact files, comma-separated")->required();
  cmd->add_option("--samples", o.samples, "inputs to run (seeded: seed, seed+1, ...)")->capture_default_str();
  cmd->add_option("--seed", o.seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--input", o.inputs, "NAME=SPEC: an input's source, as `run --input` (e.g. x=a.npy)");
  cmd->add_option("--dim", o.dims, "bind a symbolic dimension: NAME=VALUE (repeatable)");
  cmd->add_option("--min-sqnr", o.min_sqnr_db, "a tensor below this SQNR (dB) has drifted")->capture_default_str();
  cmd->add_option("--timeout", o.timeout_ms, "kill a side's worker after this many ms")->capture_default_str();
  cmd->add_option("--data", o.data, "a labelled data set instead of seeded inputs: fashion-mnist, DIR or IMAGES,LABELS "
                  "(--samples images; adds top-1 accuracy)");
  cmd->add_option("--split", o.split, "--data: test or train")->capture_default_str();
  cmd->add_option("--offset", o.offset, "--data: the first image's index")->capture_default_str();
  cmd->add_option("--preprocess", o.preprocess, "--data: the images' preprocessing (default: the manifest's)");
  cmd->add_option("--prompts", o.prompts_file, "GGUF: a text file of prompts, one per line (default: built-in sentences)");
  cmd->add_option("--random-prompts", o.random_prompts, "GGUF: this many seeded random token sequences instead");
  cmd->add_option("--max-tokens", o.max_tokens, "GGUF: tokens per prompt (longer ones are cut)")->capture_default_str();
}

}  // namespace

Result<std::vector<PlannedCase>> PlanDriftForSuite(const std::vector<std::string>& args, const ModelSpec& model,
                                                   const Target& target, const MonitorSettings& monitor,
                                                   CommandContext& context) {
  CLI::App app("the drift: block of a suite", "drift:");
  DriftOptions o;
  AddDriftPlanOptions(&app, o);
  if (Status parsed = ParseSuiteBlock(app, args); !parsed.ok()) return parsed;
  const bool gguf = std::any_of(model.artifacts.begin(), model.artifacts.end(),
                                [](const ArtifactSpec& a) { return EndsWith(a.path, ".gguf"); });
  auto sides = ResolveSides(o, model, target, context.registry);
  if (!sides.ok()) return sides.status();
  if (gguf) {
    // Per-token KL divergence of the variants' next-token distributions (runner/token_drift_mode.h).
    TokenDriftOptions t = TokenDriftOptionsOf(o, sides.value().first, sides.value().second, target.text);
    t.monitor = monitor;
    auto request = TokenDriftRequestFrom(t, context.executable);
    if (!request.ok()) return Status::Error("model '" + model.name + "': " + request.error());
    return PlanTokenDriftCases(request.value(), context.registry);
  }
  auto plan = PlanTensorDriftCommand(o, model, target, sides.value().first, sides.value().second, monitor, context);
  if (!plan.ok()) return plan.status();
  return std::move(plan.value().cases);
}

void AddDriftCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<DriftOptions>();
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
  AddDriftPlanOptions(cmd, *o);
  cmd->add_option("-t,--target", o->target, "where both run (one target; default ort:cpu, llamacpp:cpu for GGUF)");
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
