// `edgebench conformance [--target T1,T2] [--ops PATTERN]`: ONNX's own node test cases (one
// operator each, its inputs and expected outputs; scripts/models/onnx-node-tests makes them) on
// every target that reads ONNX, each case crash-isolated, each cell pass, wrong (by how much),
// refused, error, crashed, timeout or untestable, with where the node ran (docs/conformance.md).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/conformance_command.h"
#include "core/strings.h"
#include "plan/resolve_target.h"
#include "report/conformance_tables.h"
#include "runner/conformance_run.h"
#include "runner/interrupt.h"

namespace edgebench {
namespace {


// The newest onnx-node-tests-VERSION under the cache (scripts/models/onnx-node-tests), or "".
std::string DefaultCasesDir() {
  std::string cache;
  if (const char* set = std::getenv("EDGEBENCH_CACHE"); set && *set) {
    cache = set;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    cache = std::string(home) + "/.cache/edgebench";
  }
  std::error_code ec;
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(cache + "/models", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("onnx-node-tests-", 0) == 0 && std::filesystem::exists(entry.path() / "manifest.json")) {
      found.push_back(entry.path().string());
    }
  }
  std::sort(found.begin(), found.end(), NaturalLess);
  return found.empty() ? "" : found.back();
}

}  // namespace

int RunConformanceCommand(const ConformanceCommandOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench conformance: " << message << "\n";
    return 2;
  };
  if (o.format != "table" && o.format != "markdown" && o.format != "json" && o.format != "jsonl") {
    return fail("--format '" + o.format + "': use table, markdown, json or jsonl");
  }
  if (o.timeout_ms <= 0) return fail("--timeout must be above 0 ms");
  const std::string dir = o.cases_dir.empty() ? DefaultCasesDir() : o.cases_dir;
  if (dir.empty()) {
    return fail("no ONNX node tests were found in the cache: make them with scripts/models/onnx-node-tests "
                "(it prints their directory) or give --cases DIR");
  }
  auto cases = ReadConformanceCases(dir);
  if (!cases.ok()) return fail(cases.error());
  auto selected = SelectConformanceCases(cases.value().cases, o.ops);
  if (!selected.ok()) return fail(selected.error());
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  for (const Target& target : targets.value()) {
    if (Status known = CheckTargetKnown(target, context.registry); !known.ok()) return fail(known.message());
  }
  std::string store_path;
  if (!o.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.out_dir, ec);
    if (ec) return fail("cannot create --out '" + o.out_dir + "': " + ec.message());
    store_path = (std::filesystem::path(o.out_dir) / "conformance.jsonl").string();
  }
  InstallInterruptHandlers();
  const bool progress = ::isatty(STDERR_FILENO) != 0;
  std::vector<ConformanceCell> all;
  int exit_code = 0;
  for (const Target& target : targets.value()) {
    ConformanceRunRequest request;
    request.executable = context.executable;
    request.target = target.text;
    request.cases_dir = dir;
    request.onnx_version = cases.value().onnx_version;
    request.cases = selected.value();
    request.ops = o.ops;
    request.case_timeout_ms = o.timeout_ms;
    request.memory_limit_mb = o.case_memory_mb;
    request.store_path = store_path;
    if (!store_path.empty()) {
      request.stderr_log = (std::filesystem::path(o.out_dir) / "conformance-stderr.log").string();
    }
    request.on_cell = [&](const ConformanceCell& cell, size_t done, size_t total) {
      if (o.format == "jsonl") std::cout << ConformanceCellToJson(cell).dump() << "\n" << std::flush;
      if (progress && (done % 25 == 0 || done == total)) {
        std::cerr << "\r" << target.text << ": " << done << "/" << total << " cases" << (done == total ? "\n" : "")
                  << std::flush;
      }
    };
    ConformanceRunOutcome outcome = RunConformanceTarget(request);
    for (const std::string& warning : outcome.warnings) std::cerr << "edgebench conformance: " << warning << "\n";
    if (!outcome.runtime.error.empty()) {
      std::cerr << "edgebench conformance: " << target.text << ": " << outcome.runtime.error << "\n";
      exit_code = 1;
      continue;
    }
    std::cerr << "edgebench conformance: " << outcome.runtime.target << " (" << outcome.runtime.runtime << " "
              << outcome.runtime.version << "): " << outcome.cells.size() << " cases of ONNX "
              << cases.value().onnx_version;
    if (outcome.resumed) std::cerr << ", " << outcome.resumed << " of them from " << store_path;
    std::cerr << "\n";
    all.insert(all.end(), outcome.cells.begin(), outcome.cells.end());
    if (outcome.interrupted_by) {
      std::cerr << "edgebench conformance: interrupted; run the same command again to go on where it stopped"
                << (store_path.empty() ? " (with --out: this run kept no store)" : "") << "\n";
      exit_code = 1;
      break;
    }
  }
  const std::vector<ConformanceColumn> columns = ConformanceColumns(all);
  if (o.format == "json") {
    nlohmann::json cells = nlohmann::json::array();
    for (const ConformanceCell& cell : all) cells.push_back(ConformanceCellToJson(cell));
    std::cout << nlohmann::json{{"onnx_version", cases.value().onnx_version}, {"cases_dir", dir}, {"cells", cells}}
                     .dump(1)
              << "\n";
  } else if ((o.format == "table" || o.format == "markdown") && !columns.empty()) {
    ConformanceTableOptions table{o.format == "markdown", context.table};
    const std::string h = table.markdown ? "### " : "";
    std::cout << "\n" << h << "ONNX node tests (onnx " << cases.value().onnx_version << ", " << selected.value().size()
              << " cases" << (o.ops.empty() ? "" : " matching " + o.ops) << ")\n\n"
              << FormatConformanceTotals(columns, table) << "\n" << h << "by operator family: passed/testable, "
              << "then what else happened\n\n"
              << FormatConformanceFamilies(columns, table) << "\n" << h
              << (o.all_operators ? "every operator\n\n" : "operators some target did not pass (--all-operators: every one)\n\n")
              << FormatConformanceOperators(columns, !o.all_operators, table);
    if (o.details) {
      const std::string failures = FormatConformanceFailures(columns, table);
      if (!failures.empty()) std::cout << "\n" << h << "cells that did not pass\n\n" << failures;
    }
    if (!store_path.empty()) {
      std::cout << "\ncells in " << store_path << "; the runtimes' own messages in "
                << (std::filesystem::path(o.out_dir) / "conformance-stderr.log").string() << "\n";
    }
  }
  return exit_code;
}

void AddConformanceCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<ConformanceCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "conformance",
      "run ONNX's own node test cases (one operator each, with expected outputs) on targets that read ONNX: "
      "which operators each runs correctly, and where (docs/conformance.md)");
  cmd->footer(
      "Example: edgebench conformance --cases \"$(scripts/models/onnx-node-tests)\" --target ort:cpu,openvino:cpu "
      "--ops 'Conv*,Resize'\n"
      "A cell is pass, wrong (with the largest error), refused (at load, the runtime's message), error (at run), "
      "crashed, timeout, or untestable (values edgebench cannot pass: a sequence, a float64).\n"
      "Exit status: 0 when every target ran every case (whatever the cells say), 1 when a target cannot run here "
      "or the run was interrupted, 2 for bad arguments.");
  cmd->add_option("--cases", options->cases_dir,
                  "the directory scripts/models/onnx-node-tests made (default: the newest in "
                  "$EDGEBENCH_CACHE/models)");
  cmd->add_option("-t,--target", options->targets, "comma-separated targets that read ONNX, e.g. ort:cpu,ort:xnnpack")
      ->capture_default_str();
  cmd->add_option("--ops", options->ops,
                  "comma-separated shell globs of operators or case names to run, e.g. 'Conv*,Resize,test_abs' "
                  "(default: every case)");
  cmd->add_option("--timeout", options->timeout_ms, "end a case's worker after this many ms: a timeout cell")
      ->capture_default_str();
  cmd->add_option("--case-memory", options->case_memory_mb,
                  "a worker may use this many MiB of resident memory; over it the case is crashed (0: 80% of "
                  "physical memory)")
      ->capture_default_str();
  cmd->add_option("-f,--format", options->format,
                  "table or markdown (totals, families, operators), json (every cell) or jsonl (cells as they come)")
      ->capture_default_str();
  cmd->add_flag("--all-operators", options->all_operators, "list every operator, not only those some target failed");
  cmd->add_flag("--details", options->details, "list every cell that did not pass, with the runtime's message");
  options->out_dir = kDefaultStoreDir;
  CLI::Option* out = cmd->add_option("-o,--out", options->out_dir,
                                     "append each cell to DIR/conformance.jsonl as it comes; a later run with the "
                                     "same DIR goes on where this one stopped (report and compare read it)")
                         ->check(CLI::Validator([](std::string& v) { return v.empty() ? "an empty --out" : ""; }, "DIR"))
                         ->capture_default_str();
  cmd->add_flag_callback(
         "--no-store", [options] { options->out_dir.clear(); },
         "keep no store: print the tables only (and resume nothing)")
      ->excludes(out);
  cmd->callback([options, &context] { context.exit_code = RunConformanceCommand(*options, context); });
}

}  // namespace edgebench
