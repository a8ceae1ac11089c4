// `edgebench run MODEL --target T1,T2`: one case per target, each in its own worker process,
// one row per target; records appended to DIR/results.jsonl with --out.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <iostream>

#include "cli/mix_command.h"
#include "cli/commands.h"
#include "core/log.h"
#include "core/strings.h"
#include "cli/command_support.h"
#include "cli/monitor_options.h"
#include "cli/round_options.h"
#include "cli/record_output.h"
#include "inputs/input_source.h"
#include "load/scenario.h"
#include "load/scenario_registry.h"
#include "plan/mix_file.h"
#include "plan/plan.h"
#include "plan/run_request_check.h"
#include "stats/summary.h"
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
  std::string scenarios = "single-stream";
  std::string window = "5s";
  bool find_peak = false;
  // Which load flags were given, to reject those no listed scenario uses.
  std::map<std::string, bool> given;
  std::string format = "table";
  std::string out_dir;
  bool in_process = false;
  std::string plan_out;  // --plan-out (hidden)
  bool fail_on_invalid = false;
  MonitorFlags monitor;
  RoundFlags rounds;
  std::string trace_path;
  bool profile = false;
  std::vector<std::string> stages;  // --stage NAME=TARGET,... (pipelines)
  bool target_given = false;
  // Diffusion pipelines (docs/diffusion.md): 0 / empty keep the pipeline file's.
  int steps = 0;
  std::string image;
  int64_t images_per_prompt = 0;
  std::string save_images;
};

// --steps, --image, --images-per-prompt and --save-images into the pipeline's diffusion
// settings; an error where the pipeline is not a diffusion or a value cannot run.
Status ApplyDiffusionFlags(const RunOptions& o, PipelineSpec& pipeline) {
  const bool given = o.steps != 0 || !o.image.empty() || o.images_per_prompt != 0 || !o.save_images.empty();
  if (!pipeline.diffusion) {
    if (given) {
      return Status::Error("--steps, --image, --images-per-prompt and --save-images are for diffusion pipelines "
                           "(docs/diffusion.md); '" + pipeline.path + "' has no diffusion: block");
    }
    return Status::Ok();
  }
  DiffusionSettings& d = *pipeline.diffusion;
  if (o.steps != 0) d.steps = o.steps;
  if (!o.image.empty()) {
    if (Status s = ParseImageSize(o.image, d); !s.ok()) return Status::Error("--image: " + s.message());
  }
  if (o.images_per_prompt != 0) d.batch = o.images_per_prompt;
  if (Status s = CheckDiffusionSettings(d); !s.ok()) return s;
  return Status::Ok();
}

// `edgebench run PIPELINE.yaml`: the pipeline's cases (a combination of its model stages'
// targets, --stage overriding one stage's, per scenario), run and reported as a model's are.
// Model-only flags are refused: they would not reach any stage.
int RunPipelineFile(const RunOptions& o, PlanRequest request, CommandContext& context, const CheckedMonitorFlags& monitor) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench run: " << message << "\n";
    return 2;
  };
  const std::vector<std::pair<bool, std::string>> model_only = {
      {o.target_given && !o.stages.empty(),
       "--target runs every model stage on each target in turn; --stage NAME=TARGET sets one stage's: give one or the other"},
      {!o.dims.empty() || o.strict_dims, "--dim and --strict-dims: a pipeline's models run at their own input shapes"},
      {!o.inputs.empty() || o.input_pool != 1, "--input and --input-pool: a pipeline's query is its input: image"},
      {!o.model_name.empty(), "--name: a pipeline is named by its file's name: key"},
      {o.profile, "--profile is not supported for pipelines yet: their stages' records hold per-stage times instead"}};
  for (const auto& [given, why] : model_only) {
    if (given) return fail(why);
  }
  auto pipeline = ReadPipelineFile(o.model_path);
  if (!pipeline.ok()) return fail(pipeline.error());
  if (Status s = ApplyDiffusionFlags(o, pipeline.value()); !s.ok()) return fail(s.message());
  if (o.target_given) {
    auto targets = ParseTargetList(o.targets);
    if (!targets.ok()) return fail(targets.error());
    std::vector<std::string> texts;
    for (const Target& t : targets.value()) texts.push_back(t.text);
    if (Status s = SetEveryStageTargets(pipeline.value(), texts); !s.ok()) return fail(s.message());
  }
  std::set<std::string> overridden;
  for (const std::string& text : o.stages) {
    const std::string name = text.substr(0, text.find('='));
    if (!overridden.insert(name).second) {
      return fail("--stage " + name + " is given twice; list its targets in one: --stage " + name + "=T1,T2");
    }
    if (Status s = OverrideStageTargets(pipeline.value(), text); !s.ok()) return fail(s.message());
  }
  auto combinations = PipelineTargetCombinations(pipeline.value(), context.registry);
  if (!combinations.ok()) return fail(combinations.error());
  if (!o.save_images.empty()) {
    std::error_code ec;
    const std::string dir = std::filesystem::absolute(o.save_images, ec).lexically_normal().string();
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) return fail("--save-images: cannot make the directory '" + dir + "'");
    for (PipelinePlan& c : combinations.value()) c.save_images = dir;
  }
  auto planned = PlanPipeline(pipeline.value(), combinations.value(), request);
  if (!planned.ok()) return fail(planned.error());
  auto plan = ApplyRoundFlags(planned.value(), o.rounds);
  if (!plan.ok()) return fail(plan.error());
  return RunPlanAndReport(plan.value(), context, {"run", o.format, o.out_dir, o.in_process, {}, o.fail_on_invalid,
                                                  monitor.cooldown, request.monitor.sysfs_root, o.trace_path, o.plan_out});
}

int Run(const RunOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench run: " << message << "\n";
    return 2;
  };
  if (IsMixFile(o.model_path)) {
    // A mix's workloads carry their own targets, scenarios and load (docs/mixes.md).
    bool load_given = o.target_given || !o.stages.empty() || o.scenarios != "single-stream" || o.rounds.rounds > 1;
    for (const auto& [flag, given] : o.given) load_given = load_given || given;
    if (load_given) {
      return fail("a mix file (" + o.model_path + ") names each workload's target, scenario and load; "
                  "only --out, --no-store, --format and --no-monitor apply to it (docs/mixes.md)");
    }
    return RunMixCommand({o.model_path, o.format, o.out_dir, o.monitor.no_monitor}, context);
  }
  const bool is_pipeline = IsPipelineFile(o.model_path);
  if (!is_pipeline && !o.stages.empty()) return fail("--stage NAME=TARGET is for pipeline files (docs/pipelines.md)");
  if (!is_pipeline && (o.steps != 0 || !o.image.empty() || o.images_per_prompt != 0 || !o.save_images.empty())) {
    return fail("--steps, --image, --images-per-prompt and --save-images are for diffusion pipelines (docs/diffusion.md)");
  }
  RunSettings settings = o.settings;
  auto window = ParseDurationMs(o.window);
  if (!window.ok()) return fail("--window: " + window.error());
  settings.window_ms = window.value();
  std::vector<std::string> scenarios;
  for (const std::string& text : SplitList(o.scenarios)) {
    auto parsed = ParseScenario(text);
    if (!parsed.ok()) return fail("--scenario: " + parsed.error());
    if (parsed.value().entry->sessions == SessionKind::kLanguageModel) {
      return fail("--scenario llm: language models run with `edgebench llm`");
    }
    scenarios.push_back(parsed.value().Canonical());
  }
  if (scenarios.empty()) return fail("--scenario: give at least one scenario (" + ScenarioForms() + ")");
  PlanRequest request;
  request.settings = settings;
  request.scenarios = scenarios;
  request.find_peak = o.find_peak;
  request.strict_dims = o.strict_dims;
  request.input_pool = o.input_pool;
  std::set<std::string> given;  // by suite-file key, as the suite reader gives them
  for (const auto& [flag, was_given] : o.given) {
    if (!was_given) continue;
    std::string key = flag.substr(2);
    std::replace(key.begin(), key.end(), '-', '_');
    given.insert(key);
  }
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());
  request.monitor = monitor.value().settings;
  request.profile = o.profile;
  if (is_pipeline) {
    if (Status checked = CheckRunRequest(request, given, FlagSpelling); !checked.ok()) return fail(checked.message());
    return RunPipelineFile(o, request, context, monitor.value());
  }

  PlanModel model;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, model.dims); !s.ok()) return fail(s.message());
  }
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  model.inputs = o.inputs;
  auto spec = ParseModelArgument(o.model_path);
  if (!spec.ok()) return fail(spec.error());
  model.model = spec.take();
  if (!o.model_name.empty()) model.model.name = o.model_name;
  request.models = {model};
  request.targets = targets.take();
  if (Status checked = CheckRunRequest(request, given, FlagSpelling); !checked.ok()) return fail(checked.message());
  auto planned = PlanCases(request, context.registry);
  if (!planned.ok()) return fail(planned.error());
  auto plan = ApplyRoundFlags(planned.value(), o.rounds);
  if (!plan.ok()) return fail(plan.error());
  return RunPlanAndReport(plan.value(), context, {"run", o.format, o.out_dir, o.in_process, {}, o.fail_on_invalid,
                                                  monitor.value().cooldown, request.monitor.sysfs_root,
                                                  o.trace_path, o.plan_out});
}

}  // namespace

void AddRunCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run", "measure a model on one or more targets under one or more scenarios, a row per case");
  cmd->footer(
      std::string(kSettleColumnHelp) + "\n"
      "Exit status: 0 when every target measured (or was skipped: the model has no artifact for "
      "it) and at least one did, 1 when any failed, crashed, timed out or was unavailable, or "
      "nothing was measured, 2 for bad arguments. A mix file: 0 when every workload ran beside "
      "the others and met its objectives, 1 otherwise.");
  cmd->add_option("model", options->model_path,
                  "model: FILE, NAME=FILE1,FILE2 (one network in several formats; each may end "
                  "in ?layout=nchw|nhwc and &variant=NAME), a manifest .json (MANIFEST?variant=NAME "
                  "picks one of its variants; without it targets read the default, the first), or a "
                  "pipeline .yaml (docs/pipelines.md): its stages per query, a case per combination "
                  "of its model stages' targets, or a mix .yaml with workloads: (docs/mixes.md): several "
                  "workloads alone, then at once, each against itself alone")
      ->required();
  cmd->add_option("--stage", options->stages,
                  "pipelines: NAME=TARGET[,TARGET...] runs model stage NAME on these targets instead of "
                  "its file's (repeatable, once per stage; one case per combination)");
  cmd->add_option("--steps", options->steps, "diffusion pipelines: denoising steps per image (default: the file's)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--image", options->image, "diffusion pipelines: the image's size, WIDTHxHEIGHT (default: the file's)");
  cmd->add_option("--images-per-prompt", options->images_per_prompt,
                  "diffusion pipelines: images per prompt, the UNet's and VAE's batch (default: the file's, 1)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--save-images", options->save_images,
                  "diffusion pipelines: write each case's first image as a PNG into this directory");
  cmd->add_option("-t,--target", options->targets,
                  "comma-separated targets, e.g. ort:cpu,ort:xnnpack?threads=2,litert:cpu; for a pipeline, every "
                  "model stage on each target in turn (a case per target)")
      ->capture_default_str()
      ->each([options](const std::string&) { options->target_given = true; });
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
  cmd->add_option("-s,--scenario", options->scenarios,
                  std::string("comma-separated scenarios, each its own case and record: ") + ScenarioForms())
      ->capture_default_str();
  auto load_flag = [cmd, options](CLI::Option* option, const std::string& name) {
    option->each([options, name](const std::string&) { options->given[name] = true; });
    return option;
  };
  load_flag(cmd->add_option("--sessions", options->settings.sessions,
                            "per-stream (a session per stream or worker) or shared (all on one session; "
                            "only where the runtime allows concurrent runs)")
                ->capture_default_str(),
            "--sessions");
  load_flag(cmd->add_option("--concurrency", options->settings.concurrency,
                            "server and offline: sessions serving queries at once")
                ->capture_default_str(),
            "--concurrency");
  load_flag(cmd->add_option("--batch", options->settings.batch,
                            "offline: bind every input's first axis to this batch size")
                ->capture_default_str(),
            "--batch");
  load_flag(cmd->add_option("--streams", options->settings.streams, "soak: closed-loop streams")->capture_default_str(),
            "--streams");
  cmd->add_option("--window", options->window,
                  "windows for soak reports and the stability rule (e.g. 5s, 500ms)")
      ->capture_default_str();
  cmd->add_option("--confidence", options->settings.confidence,
                  "early stopping (MLPerf LoadGen): say whether p90/p99 (server: the p99 bound) are "
                  "supported at this confidence, e.g. 0.99; unsupported is INVALID (0: off)")
      ->capture_default_str();
  load_flag(cmd->add_option("--p99-bound-ms", options->settings.p99_bound_ms,
                            "server: a p99 above this many ms is INVALID (0: no bound)")
                ->capture_default_str(),
            "--p99-bound-ms");
  load_flag(cmd->add_flag("--find-peak", options->find_peak,
                          "server: search the highest rate whose p99 stays under --p99-bound-ms, from "
                          "the server:QPS rate (double until it fails, then bisect to 2%); a record per step"),
            "--find-peak");
  cmd->add_option("--warmup", options->settings.warmup_queries, "warmup queries, kept apart (per stream)")
      ->capture_default_str();
  AddMeasuredPhaseOptions(cmd, options->settings);
  cmd->add_option("--max-queries", options->settings.max_queries,
                  "measured phase stops after this many queries (keeps sub-microsecond runs bounded)")
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
  AddStoreOptions(cmd, options->out_dir);
  cmd->add_flag("--in-process", options->in_process,
                "run cases in this process (debugging; a crash ends the run)");
  cmd->add_flag("--fail-on-invalid", options->fail_on_invalid, "exit 1 when a measured case is INVALID (for CI)");
  AddMonitorOptions(cmd, options->monitor);
  AddRoundOptions(cmd, options->rounds);
  AddTraceOption(cmd, options->trace_path);
  AddPlanOutOption(cmd, options->plan_out);
  AddProfileOption(cmd, options->profile);
  cmd->callback([options, &context] { context.exit_code = Run(*options, context); });
}

}  // namespace edgebench
