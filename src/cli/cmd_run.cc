// `edgebench run MODEL --target T1,T2`: one case per target, each in its own worker process,
// one row per target; records appended to DIR/results.jsonl with --out.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "core/log.h"
#include "cli/command_support.h"
#include "cli/record_output.h"
#include "load/input_source.h"
#include "runner/plan.h"
#include "runner/run_plan.h"

namespace edgebench {
namespace {

struct RunOptions {
  std::string model_path;
  std::string model_name;
  std::string targets = "ort:cpu";
  std::vector<std::string> dims;
  bool strict_dims = false;
  std::vector<std::string> inputs;
  int64_t input_pool = 1;
  RunSettings settings;
  std::string format = "table";
  std::string out_dir;
  bool in_process = false;
  bool fail_on_invalid = false;
};

int Run(const RunOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench run: " << message << "\n";
    return 2;
  };
  PlanModel model;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, model.dims); !s.ok()) return fail(s.message());
  }
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  if (auto valid = Validate(o.settings); !valid.ok()) return fail(valid.error());
  if (Status s = ValidateInputOptions({o.inputs, o.input_pool, o.settings.seed}); !s.ok()) return fail(s.message());
  model.inputs = o.inputs;
  auto spec = ParseModelArgument(o.model_path);
  if (!spec.ok()) return fail(spec.error());
  model.model = spec.take();
  if (!o.model_name.empty()) model.model.name = o.model_name;
  PlanRequest request;
  request.models = {model};
  request.targets = targets.take();
  request.settings = o.settings;
  request.strict_dims = o.strict_dims;
  request.input_pool = o.input_pool;
  auto plan = PlanCases(request, context.registry);
  if (!plan.ok()) return fail(plan.error());
  return RunPlanAndReport(plan.value(), context, {"run", o.format, o.out_dir, o.in_process, {}, o.fail_on_invalid});
}

}  // namespace

void AddRunCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run", "measure a model on one or more targets (single-stream), one row per target");
  cmd->footer(
      std::string(kSettleColumnHelp) + "\n"
      "Exit status: 0 when every target measured (or was skipped: the model has no artifact for "
      "it) and at least one did, 1 when any failed, crashed, timed out or was unavailable, or "
      "nothing was measured, 2 for bad arguments.");
  cmd->add_option("model", options->model_path,
                  "model: FILE, NAME=FILE1,FILE2 (one network in several formats; each may end "
                  "in ?layout=nchw|nhwc), or a manifest .json")
      ->required();
  cmd->add_option("-t,--target", options->targets,
                  "comma-separated targets, e.g. ort:cpu,ort:xnnpack?threads=2,litert:cpu")
      ->capture_default_str();
  cmd->add_option("--name", options->model_name, "model name in results (default: file stem)");
  cmd->add_option("--dim", options->dims,
                  "bind a symbolic dimension: NAME=VALUE, INPUT.AXIS=VALUE or '*=VALUE' (repeatable); "
                  "dimensions left free are bound to 1, said in the record and on stderr");
  cmd->add_flag("--strict-dims", options->strict_dims,
                "fail a case when a symbolic dimension has no --dim instead of binding it to 1");
  cmd->add_option("--input", options->inputs,
                  "an input's values: NAME=NUMBER, NAME=range:LO:HI, NAME=FILE.npy, NAME=raw:FILE or "
                  "NAME=image[resize=WxH,scale=S,mean=M,std=S,layout=nchw|nhwc]:FILE (repeatable; "
                  "repeated for one NAME, its sources are cycled); others are seeded");
  cmd->add_option("--input-pool", options->input_pool,
                  "N different input samples cycled through the queries (seeded inputs use seed + i)")
      ->capture_default_str();
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
  cmd->add_option("--max-queries", options->settings.max_queries,
                  "measured phase stops after this many queries (keeps sub-microsecond runs bounded)")
      ->capture_default_str();
  cmd->add_option("--seed", options->settings.seed, "seed of the generated inputs")
      ->capture_default_str();
  cmd->add_option("--max-cv", options->settings.max_cv,
                  "coefficient of variation above which a result is INVALID")
      ->capture_default_str();
  cmd->add_option("--timeout", options->settings.case_timeout_ms,
                  "kill a case after this many ms (0: 2 x max-duration + 120 s)")
      ->capture_default_str();
  cmd->add_option("--case-memory", options->settings.case_memory_mb,
                  "a case's worker may use this many MiB of resident memory; over it the case is an "
                  "oom record (0: 80% of physical memory)")
      ->capture_default_str();
  cmd->add_option("-f,--format", options->format, "table, markdown, csv, json or jsonl")
      ->capture_default_str();
  cmd->add_option("-o,--out", options->out_dir, "append records to DIR/results.jsonl")->check(NonEmpty());
  cmd->add_flag("--in-process", options->in_process,
                "run cases in this process (debugging; a crash ends the run)");
  cmd->add_flag("--fail-on-invalid", options->fail_on_invalid, "exit 1 when a measured case is INVALID (for CI)");
  cmd->callback([options, &context] { context.exit_code = Run(*options, context); });
}

}  // namespace edgebench
