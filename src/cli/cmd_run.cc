// `edgebench run MODEL --target T1,T2`: one case per target, each in its own worker process,
// one row per target; records appended to DIR/results.jsonl with --out.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "core/log.h"
#include "cli/record_output.h"
#include "runner/plan.h"
#include "runner/run_case.h"
#include "runner/worker_process.h"

namespace edgebench {
namespace {

struct RunOptions {
  std::string model_path;
  std::string model_name;
  std::string targets = "ort:cpu";
  std::vector<std::string> dims;
  RunSettings settings;
  std::string format = "table";
  std::string out_dir;
  bool in_process = false;
};

int Run(const RunOptions& o, CommandContext& context) {
  ShapeBindings dims;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, dims); !s.ok()) {
      std::cerr << "edgebench run: " << s.message() << "\n";
      return 2;
    }
  }
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) {
    std::cerr << "edgebench run: " << targets.error() << "\n";
    return 2;
  }
  if (auto valid = Validate(o.settings); !valid.ok()) {
    std::cerr << "edgebench run: " << valid.error() << "\n";
    return 2;
  }
  auto model = ParseModelArgument(o.model_path);
  if (!model.ok()) {
    std::cerr << "edgebench run: " << model.error() << "\n";
    return 2;
  }
  if (!o.model_name.empty()) model.value().name = o.model_name;
  const std::vector<PlannedTarget> plan = PlanTargets(model.value(), targets.value(), context.registry);
  if (const std::string missing = MissingArtifacts(plan); !missing.empty()) {
    std::cerr << "edgebench run: " << missing << "\n";
    return 2;
  }
  auto printer = MakePrinter(o.format, std::cout);
  if (!printer.ok()) {
    std::cerr << "edgebench run: " << printer.error() << "\n";
    return 2;
  }
  auto output = RecordOutput::Open(printer.take(), o.out_dir);
  if (!output.ok()) {
    std::cerr << "edgebench run: " << output.error() << "\n";
    return 2;
  }
  std::vector<std::string> worker_args;
  if (LogEnabled(LogLevel::kDebug)) worker_args.push_back("--verbose");

  int exit_code = 0;
  output.value().Begin();
  for (const PlannedTarget& planned : plan) {
    const std::string& name = model.value().name;
    CaseSpec spec;
    spec.model = name;
    spec.artifact = planned.artifact ? planned.artifact->path : "";
    spec.target = planned.target.text;
    spec.dims = dims;
    spec.settings = o.settings;
    Record record;
    if (!planned.artifact) {
      record = MakeBaseRecord(spec, context.registry);
      record.status = CaseStatus::kSkipped;
      record.failed_stage = "plan";
      record.error = planned.skip_reason;
      FinishRecord(record);
    } else {
      Log(LogLevel::kInfo, "running " + name + " (" + spec.artifact + ") on " + spec.target);
      record = o.in_process ? RunCase(spec, context.registry)
                            : RunCaseInWorker(context.executable, spec, context.registry, worker_args);
    }
    if (!output.value().Emit(record, "run")) exit_code = 1;
    if (record.status != CaseStatus::kOk && record.status != CaseStatus::kSkipped) exit_code = 1;
  }
  output.value().End();
  return exit_code;
}

}  // namespace

void AddRunCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run", "measure a model on one or more targets (single-stream), one row per target");
  cmd->footer(
      "Exit status: 0 when every target measured (or was skipped: the model has no artifact for "
      "it), 1 when any failed, crashed, timed out or was unavailable, 2 for bad arguments.");
  cmd->add_option("model", options->model_path,
                  "model: FILE, NAME=FILE1,FILE2 (one network in several formats; each may end "
                  "in ?layout=nchw|nhwc), or a manifest .json")
      ->required();
  cmd->add_option("-t,--target", options->targets,
                  "comma-separated targets, e.g. ort:cpu,ort:xnnpack?threads=2,litert:cpu")
      ->capture_default_str();
  cmd->add_option("--name", options->model_name, "model name in results (default: file stem)");
  cmd->add_option("--dim", options->dims, "bind a symbolic dimension: NAME=VALUE (repeatable)");
  cmd->add_option("--warmup", options->settings.warmup_queries, "warmup queries, kept apart")
      ->capture_default_str();
  cmd->add_option("--min-queries", options->settings.min_queries, "measured queries at least")
      ->capture_default_str();
  cmd->add_option("--min-duration", options->settings.min_duration_ms,
                  "measured phase lasts at least this many ms")
      ->capture_default_str();
  cmd->add_option("--max-duration", options->settings.max_duration_ms,
                  "measured phase stops after this many ms")
      ->capture_default_str();
  cmd->add_option("--seed", options->settings.seed, "seed of the generated inputs")
      ->capture_default_str();
  cmd->add_option("--max-cv", options->settings.max_cv,
                  "coefficient of variation above which a result is INVALID")
      ->capture_default_str();
  cmd->add_option("--timeout", options->settings.case_timeout_ms,
                  "kill a case after this many ms (0: 2 x max-duration + 120 s)")
      ->capture_default_str();
  cmd->add_option("-f,--format", options->format, "table, markdown, csv, json or jsonl")
      ->capture_default_str();
  cmd->add_option("-o,--out", options->out_dir, "append records to DIR/results.jsonl");
  cmd->add_flag("--in-process", options->in_process,
                "run cases in this process (debugging; a crash ends the run)");
  cmd->callback([options, &context] { context.exit_code = Run(*options, context); });
}

}  // namespace edgebench
