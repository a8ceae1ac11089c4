// `edgebench shapes MODEL --target T1,T2 --dim batch=1,2,4 --dim seq=128,512`: every combination
// of the dims' values on every target, each its own case in its own worker (so a shape that
// aborts, hangs or exhausts memory costs only its own cell), printed as a matrix of shapes x
// targets under the records (docs/shapes.md).
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/monitor_options.h"
#include "core/strings.h"
#include "load/scenario.h"
#include "report/shape_matrix.h"
#include "core/cartesian.h"
#include "plan/pipeline_file.h"
#include "plan/plan.h"

namespace edgebench {
namespace {

struct ShapesOptions {
  std::string model_path;
  std::string model_name;
  std::string targets = "ort:cpu";
  std::vector<std::string> dims;  // NAME=V1,V2,...
  bool strict_dims = false;
  RunSettings settings;
  std::string format = "table";
  std::string out_dir;
  MonitorFlags monitor;
};

struct SweepDim {
  std::string name;  // as --dim wrote it: a symbol, INPUT.AXIS or '*'
  std::vector<int64_t> values;
};

// "batch=1,2,4" into a name and its values, each checked as `run`'s --dim checks one.
Result<SweepDim> ParseSweepDim(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    return Status::Error("bad --dim '" + text +
                         "': expected NAME=V1,V2,..., for example batch=1,2,4");
  }
  SweepDim dim{text.substr(0, eq), {}};
  const std::string list = text.substr(eq + 1);
  if (list.empty()) {
    return Status::Error("bad --dim '" + text + "': no values; give at least one, for example " +
                         dim.name + "=1,2,4");
  }
  for (const std::string& value : SplitList(list)) {
    ShapeBindings one;
    if (Status s = ParseDimBinding(dim.name + "=" + value, one); !s.ok()) {
      return Status::Error("bad --dim '" + text + "': '" + value + "' is not a positive integer");
    }
    const int64_t v = one.begin()->second;
    if (std::find(dim.values.begin(), dim.values.end(), v) != dim.values.end()) {
      return Status::Error("bad --dim '" + text + "': " + value + " is listed twice");
    }
    dim.values.push_back(v);
  }
  return dim;
}

std::vector<size_t> DimSizes(const std::vector<SweepDim>& dims) {
  std::vector<size_t> sizes;
  for (const SweepDim& dim : dims) sizes.push_back(dim.values.size());
  return sizes;
}

// The cartesian product in sweep order: the first --dim varies slowest.
std::vector<ShapeBindings> Sweep(const std::vector<SweepDim>& dims) {
  std::vector<ShapeBindings> shapes;
  ForEachCombination(DimSizes(dims), [&](const std::vector<size_t>& index) {
    ShapeBindings shape;
    for (size_t d = 0; d < dims.size(); ++d) shape[dims[d].name] = dims[d].values[index[d]];
    shapes.push_back(std::move(shape));
  });
  return shapes;
}

// True when no case measured and every one failed because a --dim names no dimension of the
// model (CheckBindingsUsed, in the worker: the orchestrator never loads a model): the sweep
// asked for shapes this model does not have, a bad argument rather than a finding.
bool DimsNameNothing(const std::vector<Record>& records) {
  if (records.empty()) return false;
  for (const Record& r : records) {
    if (r.status != CaseStatus::kFailed || r.failed_stage != "inputs" ||
        r.error.find("named no symbolic dimension") == std::string::npos) {
      return false;
    }
  }
  return true;
}

// A diffusion pipeline's sweep: --dim batch (images per prompt), image (square sides), height
// and width, in pixels. Each shape is the pipeline at those settings with every model stage on
// one target, a case in its own worker: a runtime that refuses or crashes on a shape is a cell.
Result<std::vector<PlannedCase>> PlanDiffusionSweep(const ShapesOptions& o, const std::vector<SweepDim>& dims,
                                                    const std::vector<ShapeBindings>& shapes,
                                                    const std::vector<Target>& targets, const PlanRequest& request,
                                                    CommandContext& context, std::string& name) {
  auto pipeline = ReadPipelineFile(o.model_path);
  if (!pipeline.ok()) return pipeline.status();
  if (!pipeline.value().diffusion) {
    return Status::Error("'" + o.model_path + "' is a pipeline without a diffusion: block; shapes sweeps models and "
                         "diffusion pipelines");
  }
  for (const SweepDim& dim : dims) {
    if (dim.name != "batch" && dim.name != "image" && dim.name != "height" && dim.name != "width") {
      return Status::Error("--dim " + dim.name + ": a diffusion pipeline sweeps batch (images per prompt), image "
                           "(square side in pixels), height and width");
    }
  }
  name = pipeline.value().name;
  std::vector<PlannedCase> plan;
  for (const Target& target : targets) {
    for (const ShapeBindings& shape : shapes) {
      PipelineSpec one = pipeline.value();
      DiffusionSettings& d = *one.diffusion;
      for (const auto& [dim, value] : shape) {
        if (dim == "batch") d.batch = value;
        if (dim == "image" || dim == "width") d.width = value;
        if (dim == "image" || dim == "height") d.height = value;
      }
      if (Status s = CheckDiffusionSettings(d); !s.ok()) return Status::Error("--dim: " + s.message());
      if (Status s = SetEveryStageTargets(one, {target.text}); !s.ok()) return s;
      auto cases = PipelineTargetCombinations(one, context.registry);
      if (!cases.ok()) return cases.status();
      auto planned = PlanPipeline(one, cases.value(), request, shape);
      if (!planned.ok()) return planned.status();
      for (PlannedCase& c : planned.value()) plan.push_back(std::move(c));
    }
  }
  return plan;
}

int Shapes(const ShapesOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench shapes: " << message << "\n";
    return 2;
  };
  if (o.dims.empty()) {
    return fail("give at least one --dim NAME=V1,V2,... to sweep, for example --dim batch=1,2,4");
  }
  std::vector<SweepDim> dims;
  std::vector<std::string> dim_order;
  for (const std::string& text : o.dims) {
    auto dim = ParseSweepDim(text);
    if (!dim.ok()) return fail(dim.error());
    if (std::find(dim_order.begin(), dim_order.end(), dim.value().name) != dim_order.end()) {
      return fail("--dim " + dim.value().name +
                  " is given twice; list all its values in one --dim");
    }
    dim_order.push_back(dim.value().name);
    dims.push_back(dim.take());
  }
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  if (auto valid = ValidateForScenario("single-stream", o.settings); !valid.ok()) {
    return fail(valid.error());
  }
  if (o.format != "table" && o.format != "markdown" && o.format != "csv" && o.format != "json" &&
      o.format != "jsonl") {
    return fail("--format '" + o.format + "': use table, markdown, csv, json or jsonl");
  }
  const bool is_pipeline = IsPipelineFile(o.model_path);
  auto spec = is_pipeline ? Result<ModelSpec>(ModelSpec{}) : ParseModelArgument(o.model_path);
  if (!spec.ok()) return fail(spec.error());
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());

  const double combinations = static_cast<double>(targets.value().size()) * CartesianCount(DimSizes(dims));
  if (Status s = CheckCaseCount(combinations, "the sweep (every --dim combination on " +
                                                  std::to_string(targets.value().size()) + " targets)");
      !s.ok()) {
    return fail(s.message());
  }
  PlanRequest request;
  const std::vector<ShapeBindings> shapes = Sweep(dims);
  std::vector<PlannedCase> plan;
  std::string name = spec.value().name;
  if (is_pipeline) {
    if (!o.model_name.empty() || o.strict_dims) return fail("--name and --strict-dims are for models, not pipelines");
    request.settings = o.settings;
    request.scenarios = {"single-stream"};
    request.monitor = monitor.value().settings;
    auto planned = PlanDiffusionSweep(o, dims, shapes, targets.value(), request, context, name);
    if (!planned.ok()) return fail(planned.error());
    plan = planned.take();
  } else {
    for (const ShapeBindings& shape : shapes) {
      PlanModel model;
      model.model = spec.value();
      if (!o.model_name.empty()) model.model.name = o.model_name;
      model.dims = shape;
      request.models.push_back(model);
    }
    request.targets = targets.take();
    request.settings = o.settings;
    request.strict_dims = o.strict_dims;
    request.monitor = monitor.value().settings;
    auto planned = PlanCases(request, context.registry);
    if (!planned.ok()) return fail(planned.error());
    // PlanCases orders by model (here: shape), then target; a sweep runs each target's shapes in
    // sweep order, so the growth column compares a shape with the previous one of its target.
    const size_t target_count = request.targets.size();
    if (planned.value().size() != shapes.size() * target_count) {
      return fail("internal: planned " + std::to_string(planned.value().size()) + " cases for " +
                  std::to_string(shapes.size()) + " shapes x " + std::to_string(target_count) +
                  " targets");
    }
    for (size_t t = 0; t < target_count; ++t) {
      for (size_t s = 0; s < shapes.size(); ++s) {
        plan.push_back(planned.value()[s * target_count + t]);
      }
    }
  }

  PlanRunRequest run;
  run.command = "shapes";
  run.format = o.format;
  run.out_dir = o.out_dir;
  run.cooldown = monitor.value().cooldown;
  run.sysfs_root = request.monitor.sysfs_root;
  auto outcome = RunPlanWithOutput(plan, context, run, /*keep_records=*/true);
  if (!outcome.ok()) return fail(outcome.error());
  const std::vector<Record>& records = outcome.value().records;
  if (o.format == "table" || o.format == "markdown") {
    std::cout << "\n" << (o.format == "markdown" ? "### " : "") << "shape sweep: "
              << name << "\n\n"
              << FormatShapeMatrix(records, {dim_order, o.format == "markdown"});
  }
  if (outcome.value().totals.interrupted_by == 0 && DimsNameNothing(records)) {
    return fail("no target has the dimensions swept: " + records.front().error);
  }
  return PlanExitCode(outcome.value().totals, "shapes");
}

}  // namespace

void AddShapesCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<ShapesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "shapes",
      "sweep input shapes on one or more targets, each shape in its own worker, as a matrix of "
      "shapes x targets (docs/shapes.md)");
  cmd->footer(
      "Example: edgebench shapes model.onnx --target ort:cpu,ort:xnnpack --dim batch=1,2,4,8 "
      "--dim seq=128,512\n"
      "Exit status: 0 when every shape measured on every target, 1 when any failed, crashed, timed "
      "out, ran out of memory or was unavailable, 2 for bad arguments (a --dim no target's "
      "model has).");
  cmd->add_option("model", options->model_path,
                  "model: FILE, NAME=FILE1,FILE2 (one network in several formats), a manifest .json, or a "
                  "diffusion pipeline .yaml (--dim batch=1,2 --dim image=256,512: images per prompt and "
                  "square image sides; height, width; docs/diffusion.md)")
      ->required();
  cmd->add_option("-t,--target", options->targets,
                  "comma-separated targets, e.g. ort:cpu,ort:xnnpack")
      ->capture_default_str();
  cmd->add_option("--name", options->model_name, "model name in results (default: file stem)");
  cmd->add_option("--dim", options->dims,
                  "a dimension to sweep and its values: NAME=V1,V2,..., INPUT.AXIS=V1,V2,... or "
                  "'*=V1,V2,...' (repeatable; every combination of all --dim values is a shape)")
      ->required();
  cmd->add_flag("--strict-dims", options->strict_dims,
                "fail a case when a symbolic dimension has no --dim instead of binding it to 1");
  cmd->add_option("--warmup", options->settings.warmup_queries,
                  "warmup queries; the first is the matrix's first-run latency")
      ->capture_default_str();
  AddMeasuredPhaseOptions(cmd, options->settings);
  cmd->add_option("--timeout", options->settings.case_timeout_ms,
                  "kill a shape's worker after this many ms: a timeout cell "
                  "(0: 2 x max-duration + 120 s)")
      ->capture_default_str();
  cmd->add_option("--case-memory", options->settings.case_memory_mb,
                  "a shape's worker may use this many MiB of resident memory; over it the "
                  "cell is oom (0: 80% of physical memory)")
      ->capture_default_str();
  cmd->add_option("-f,--format", options->format,
                  "table or markdown (records, then the matrix), csv, json or jsonl (records only)")
      ->capture_default_str();
  AddStoreOptions(cmd, options->out_dir);
  AddMonitorOptions(cmd, options->monitor);
  cmd->callback([options, &context] { context.exit_code = Shapes(*options, context); });
}

}  // namespace edgebench
