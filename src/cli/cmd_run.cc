// `edgebench run MODEL --target T1,T2`: one case per target, each in its own worker process,
// one row per target; records appended to DIR/results.jsonl with --out.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "core/log.h"
#include "report/printers.h"
#include "report/store.h"
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
  std::error_code ec;
  const bool only_null = std::all_of(targets.value().begin(), targets.value().end(),
                                     [](const Target& t) { return t.backend == "null"; });
  if (!only_null && !std::filesystem::is_regular_file(o.model_path, ec)) {
    std::cerr << "edgebench run: model file '" << o.model_path << "' does not exist\n";
    return 2;
  }
  auto printer = MakePrinter(o.format, std::cout);
  if (!printer.ok()) {
    std::cerr << "edgebench run: " << printer.error() << "\n";
    return 2;
  }
  std::optional<ResultStore> store;
  if (!o.out_dir.empty()) {
    auto opened = ResultStore::Open(o.out_dir);
    if (!opened.ok()) {
      std::cerr << "edgebench run: " << opened.error() << "\n";
      return 2;
    }
    store = opened.take();
  }
  const std::string name = o.model_name.empty()
                               ? std::filesystem::path(o.model_path).stem().string()
                               : o.model_name;
  std::vector<std::string> worker_args;
  if (LogEnabled(LogLevel::kDebug)) worker_args.push_back("--verbose");

  int exit_code = 0;
  printer.value()->Begin();
  for (const Target& target : targets.value()) {
    CaseSpec spec{name, o.model_path, target.text, dims, o.settings};
    Log(LogLevel::kInfo, "running " + name + " on " + target.text);
    Record record = o.in_process ? RunCase(spec, context.registry)
                                 : RunCaseInWorker(context.executable, spec, context.registry,
                                                   worker_args);
    if (store) {
      if (Status s = store->Append(record); !s.ok()) {
        std::cerr << "edgebench run: " << s.message() << "\n";
        exit_code = 1;
      }
    }
    printer.value()->Print(record);
    if (record.status != CaseStatus::kOk) exit_code = 1;
  }
  printer.value()->End();
  if (store) std::cerr << "edgebench: records appended to " << store->path() << "\n";
  return exit_code;
}

}  // namespace

void AddRunCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run", "measure a model on one or more targets (single-stream), one row per target");
  cmd->footer(
      "Exit status: 0 when every target measured, 1 when any failed, crashed, timed out or was "
      "unavailable, 2 for bad arguments.");
  cmd->add_option("model", options->model_path, "model file (.onnx)")->required();
  cmd->add_option("-t,--target", options->targets,
                  "comma-separated targets, e.g. ort:cpu,ort:xnnpack?threads=2")
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
