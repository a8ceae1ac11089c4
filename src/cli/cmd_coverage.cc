// `edgebench coverage MODEL --accel A,B`: the model's operators checked against the published
// operator lists of accelerators that need not be here (data/coverage/*.tsv); see
// docs/coverage.md.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "diagnose/coverage.h"
#include "diagnose/coverage_check.h"
#include "core/model_ops.h"
#include "plan/model_spec.h"
#include "report/conformance_tables.h"
#include "report/text_table.h"
#include "plan/plan.h"
#include "runner/run_plan.h"
#include "core/strings.h"

namespace edgebench {
namespace {

struct CoverageOptions {
  std::string model;
  std::vector<std::string> accelerators;
  std::string tables_dir = DefaultSupportTablesDir();
  std::string format = "table";
  std::string against;  // --against TARGETS: compare with what these targets placed
  std::string conformance;  // --conformance STORE: what `edgebench conformance` measured per operator
};

// The model's operators with what a conformance run measured for each on each of its targets:
// "op -> {nodes, {target label -> state}}", in the model's order of first use.
struct MeasuredOperators {
  std::vector<std::string> targets;
  std::vector<std::pair<std::string, int64_t>> ops;   // op type, nodes
  std::map<std::string, std::vector<std::string>> states;  // op -> one per target
};

Result<MeasuredOperators> MeasureOperators(const ModelOps& model, const std::string& store) {
  auto located = ConformanceStorePath(store);
  if (!located.ok()) return located.status();
  auto contents = ReadConformanceStore(located.value());
  if (!contents.ok()) return contents.status();
  const std::vector<ConformanceColumn> columns = ConformanceColumns(contents.value().cells);
  if (columns.empty()) return Status::Error("'" + store + "' holds no conformance cell");
  MeasuredOperators measured;
  for (const ConformanceColumn& column : columns) measured.targets.push_back(column.Label());
  std::map<std::string, int64_t> nodes;
  for (const ModelNode& node : model.nodes) {
    if (node.domain != "ai.onnx" && node.domain != "ai.onnx.ml" && !node.domain.empty()) continue;
    if (nodes[node.op_type]++ == 0) measured.ops.push_back({node.op_type, 0});
  }
  for (auto& [op, count] : measured.ops) {
    count = nodes[op];
    for (const ConformanceColumn& column : columns) {
      const std::string state = OperatorConformance(column, op);
      measured.states[op].push_back(state.empty() ? "no case" : state);
    }
  }
  return measured;
}

void PrintMeasured(const MeasuredOperators& measured, const std::string& store, const TableLayout& layout) {
  std::cout << "\nmeasured: ONNX's node tests of the model's operators on each target (edgebench conformance, "
            << store << "); a pass is the operator's test cases, not this model's shapes\n";
  std::vector<TextColumn> columns = {{"operator", false, 0}, {"nodes", true, 1}};
  for (const std::string& target : measured.targets) columns.push_back({target, false, 0});
  std::vector<TextRow> rows;
  for (const auto& [op, nodes] : measured.ops) {
    TextRow row{{op, std::to_string(nodes)}, ""};
    for (const std::string& state : measured.states.at(op)) row.cells.push_back(state);
    rows.push_back(std::move(row));
  }
  std::cout << RenderTextTable(columns, rows, layout);
}

std::string OpList(const std::map<std::string, int64_t>& ops) {
  std::string list;
  for (const auto& [op, nodes] : ops) list += (list.empty() ? "" : ", ") + op + " x" + std::to_string(nodes);
  return list;
}

// Runs the model once on each target, each in its own worker, and compares the placement the
// runtime reports with the table for the target's device. Targets whose device has no table for
// the model's format are said, not compared.
Result<std::vector<CoverageCheck>> CheckAgainstTargets(const CoverageOptions& options, const ModelOps& model,
                                                       const std::vector<SupportTable>& tables,
                                                       CommandContext& context, std::vector<std::string>& said) {
  auto targets = ParseTargetList(options.against);
  if (!targets.ok()) return targets.status();
  auto spec = ParseModelArgument(options.model);
  if (!spec.ok()) return spec.status();
  PlanRequest request;
  request.models = {PlanModel{spec.take(), {}, {}}};
  request.targets = targets.value();
  request.settings.warmup_queries = 0;
  request.settings.min_queries = 1;
  request.settings.min_duration_ms = 0;
  request.monitor.enabled = false;
  auto plan = PlanCases(request, context.registry);
  if (!plan.ok()) return plan.status();
  RunPlanOptions run;
  run.executable = context.executable;
  run.worker_args = WorkerLogArgs();
  run.progress = false;
  std::vector<Record> records;
  RunPlan(plan.value(), context.registry, run, [&](const Record& r) {
    records.push_back(r);
    return true;
  });
  std::vector<CoverageCheck> checks;
  for (const Record& r : records) {
    const SupportTable* table = nullptr;
    for (const SupportTable& t : tables) {
      if (t.accelerator == r.device && t.format == model.format) table = &t;
    }
    const std::string target = r.requested_target;
    if (r.status != CaseStatus::kOk) {
      said.push_back(target + ": did not run (" + CaseStatusName(r.status) + ": " + r.error + ")");
    } else if (!table) {
      // Nothing to check, but the runtime's own answer is still worth saying (OpenVINO's counts
      // the nodes its query_model gives the device).
      std::string answer;
      const auto on_device = r.placement.original_nodes_by_device.find(r.device);
      if (r.placement.known && r.placement.model_nodes && on_device != r.placement.original_nodes_by_device.end()) {
        answer = "; the runtime placed " + std::to_string(on_device->second) + "/" +
                 std::to_string(*r.placement.model_nodes) + " of the model's nodes (as it counts them) on " + r.device;
      }
      said.push_back(target + ": no table for '" + r.device + "' and " + ModelFormatName(model.format) +
                     " models to compare with" + answer);
    } else {
      checks.push_back(CheckCoverage(target, r.device, model, *table, r.placement));
    }
  }
  return checks;
}

void PrintChecks(const std::vector<CoverageCheck>& checks, const std::vector<std::string>& said) {
  if (checks.empty() && said.empty()) return;
  std::cout << "\nmeasured: the table's prediction against what the runtime placed (--against)\n";
  for (const CoverageCheck& c : checks) {
    std::cout << "  " << c.target << " (table " << c.accelerator << "): predicted " << c.predicted_nodes << "/"
              << c.total_nodes << " nodes, ran ";
    if (c.ran_nodes < 0) {
      std::cout << "unknown (" << c.unknown_reason << ")\n";
      continue;
    }
    std::cout << c.ran_nodes << "/" << c.total_nodes << " nodes"
              << (c.listed_but_left_on_cpu.empty() && c.unlisted_but_taken.empty() ? ": the table agrees" : "") << "\n";
    if (!c.listed_but_left_on_cpu.empty()) {
      std::cout << "    listed by the table, left on the CPU: " << OpList(c.listed_but_left_on_cpu) << "\n";
    }
    if (!c.unlisted_but_taken.empty()) {
      std::cout << "    not listed by the table, run by the device: " << OpList(c.unlisted_but_taken) << "\n";
    }
    for (const auto& [op, why] : c.why) std::cout << "    why " << op << ": " << why << "\n";
  }
  for (const std::string& line : said) std::cout << "  " << line << "\n";
}

nlohmann::json ChecksToJson(const std::vector<CoverageCheck>& checks, const std::vector<std::string>& said) {
  nlohmann::json out = nlohmann::json::array();
  for (const CoverageCheck& c : checks) {
    out.push_back({{"target", c.target},
                   {"accelerator", c.accelerator},
                   {"predicted_nodes", c.predicted_nodes},
                   {"total_nodes", c.total_nodes},
                   {"ran_nodes", c.ran_nodes < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.ran_nodes)},
                   {"unknown_reason", c.unknown_reason},
                   {"listed_but_left_on_cpu", c.listed_but_left_on_cpu},
                   {"unlisted_but_taken", c.unlisted_but_taken},
                   {"why", c.why}});
  }
  return {{"checks", out}, {"not_compared", said}};
}

std::string Percent(int64_t part, int64_t whole) {
  if (whole <= 0) return "-";
  return FormatPercent(static_cast<double>(part) / static_cast<double>(whole), "%.1f");
}

std::string MegaBytes(int64_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << static_cast<double>(bytes) / 1e6 << " MB";
  return out.str();
}

std::string UnsupportedList(const Coverage& coverage) {
  std::string list;
  for (const OpCount& op : coverage.unsupported) {
    list += (list.empty() ? "" : ", ") + op.op + " x" + std::to_string(op.nodes);
  }
  return list.empty() ? "-" : list;
}

nlohmann::json ToJson(const ModelOps& model, const std::string& path,
                      const std::vector<Coverage>& results, const std::vector<std::string>& missing) {
  nlohmann::json out;
  out["model"] = path;
  out["format"] = ModelFormatName(model.format);
  out["nodes"] = model.nodes.size();
  out["parameter_bytes"] = model.parameter_bytes;
  out["parameter_bytes_known"] = model.parameter_bytes_known;
  out["opsets"] = model.opsets;
  out["notes"] = model.notes;
  out["accelerators"] = nlohmann::json::array();
  for (const Coverage& c : results) {
    nlohmann::json unsupported = nlohmann::json::array();
    for (const OpCount& op : c.unsupported) unsupported.push_back({{"op", op.op}, {"nodes", op.nodes}});
    out["accelerators"].push_back({
        {"accelerator", c.accelerator},
        {"supported_nodes", c.supported_nodes},
        {"total_nodes", c.total_nodes},
        {"node_coverage", c.total_nodes ? static_cast<double>(c.supported_nodes) / c.total_nodes : 0.0},
        {"supported_parameter_bytes", c.supported_parameter_bytes},
        {"total_parameter_bytes", c.total_parameter_bytes},
        {"partitions_estimate", c.partitions},
        {"unsupported", unsupported},
        {"limits_to_check", c.limits},
        {"source", c.source},
        {"describes", c.describes},
        {"read", c.read_on},
    });
  }
  out["no_table"] = missing;
  return out;
}

void PrintTable(const ModelOps& model, const std::string& path, const std::vector<Coverage>& results,
                const std::vector<std::string>& missing) {
  std::cout << "model " << path << " (" << ModelFormatName(model.format) << ", " << model.nodes.size()
            << " nodes, " << MegaBytes(model.parameter_bytes) << " of parameters";
  for (const auto& [domain, version] : model.opsets) std::cout << ", " << domain << " opset " << version;
  std::cout << ")\n";
  for (const std::string& note : model.notes) std::cout << "note: " << note << "\n";
  std::cout << "static prediction from published operator lists, not a measurement (docs/coverage.md)\n\n";
  std::cout << std::left << std::setw(13) << "accelerator" << std::setw(15) << "nodes" << std::setw(9)
            << "nodes %" << std::setw(9) << "params %" << std::setw(12) << "partitions"
            << "unsupported op types (nodes)\n";
  for (const Coverage& c : results) {
    std::cout << std::setw(13) << c.accelerator << std::setw(15)
              << (std::to_string(c.supported_nodes) + "/" + std::to_string(c.total_nodes)) << std::setw(9)
              << Percent(c.supported_nodes, c.total_nodes) << std::setw(9)
              << Percent(c.supported_parameter_bytes, c.total_parameter_bytes) << std::setw(12)
              << ("~" + std::to_string(c.partitions)) << UnsupportedList(c) << "\n";
  }
  for (const std::string& accelerator : missing) {
    std::cout << std::setw(13) << accelerator << "no table for " << ModelFormatName(model.format)
              << " models\n";
  }
  std::cout << "\nsources\n";
  for (const Coverage& c : results) {
    std::cout << "  " << c.accelerator << ": " << c.describes << "; " << c.source << " (read " << c.read_on
              << ")\n";
  }
  bool any_limits = false;
  for (const Coverage& c : results) any_limits = any_limits || !c.limits.empty();
  if (!any_limits) return;
  std::cout << "\nlimits the sources state for supported ops this model uses (not checked)\n";
  for (const Coverage& c : results) {
    for (const std::string& limit : c.limits) std::cout << "  " << c.accelerator << ": " << limit << "\n";
  }
}

int RunCoverage(const CoverageOptions& options, CommandContext& context) {
  auto model = ReadModelOps(options.model);
  if (!model.ok()) {
    std::cerr << "edgebench coverage: " << model.error() << "\n";
    return 1;
  }
  auto tables = LoadSupportTables(options.tables_dir);
  if (!tables.ok()) {
    std::cerr << "edgebench coverage: " << tables.error() << "\n";
    return 1;
  }
  std::vector<std::string> known;
  for (const SupportTable& table : tables.value()) {
    if (known.empty() || known.back() != table.accelerator) known.push_back(table.accelerator);
  }
  std::vector<std::string> wanted = options.accelerators;
  for (const std::string& accelerator : wanted) {
    if (std::find(known.begin(), known.end(), accelerator) == known.end()) {
      std::string list;
      for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
      std::cerr << "edgebench coverage: no support table for accelerator '" << accelerator
                << "'; tables in " << options.tables_dir << ": " << list << "\n";
      return 2;
    }
  }
  if (wanted.empty()) wanted = known;
  std::vector<Coverage> results;
  std::vector<std::string> missing;
  for (const std::string& accelerator : wanted) {
    bool found = false;
    for (const SupportTable& table : tables.value()) {
      if (table.accelerator != accelerator || table.format != model.value().format) continue;
      results.push_back(ComputeCoverage(model.value(), table));
      found = true;
    }
    // Asked for by name but with no list for this format: say so; by default, leave it out.
    if (!found && !options.accelerators.empty()) missing.push_back(accelerator);
  }
  std::vector<CoverageCheck> checks;
  std::vector<std::string> said;
  if (!options.against.empty()) {
    auto checked = CheckAgainstTargets(options, model.value(), tables.value(), context, said);
    if (!checked.ok()) {
      std::cerr << "edgebench coverage: --against: " << checked.error() << "\n";
      return 2;
    }
    checks = checked.take();
  }
  std::optional<MeasuredOperators> measured;
  if (!options.conformance.empty()) {
    if (model.value().format != ModelFormat::kOnnx) {
      std::cerr << "edgebench coverage: --conformance: ONNX's node tests measure ONNX operators; "
                << options.model << " is not an ONNX model\n";
      return 2;
    }
    auto read = MeasureOperators(model.value(), options.conformance);
    if (!read.ok()) {
      std::cerr << "edgebench coverage: --conformance: " << read.error() << "\n";
      return 2;
    }
    measured = read.take();
  }
  if (options.format == "json") {
    nlohmann::json out = ToJson(model.value(), options.model, results, missing);
    if (!options.against.empty()) out["against"] = ChecksToJson(checks, said);
    if (measured) {
      nlohmann::json ops = nlohmann::json::array();
      for (const auto& [op, nodes] : measured->ops) {
        nlohmann::json states = nlohmann::json::object();
        for (size_t t = 0; t < measured->targets.size(); ++t) states[measured->targets[t]] = measured->states.at(op)[t];
        ops.push_back({{"op", op}, {"nodes", nodes}, {"measured", states}});
      }
      out["measured"] = {{"store", options.conformance}, {"operators", ops}};
    }
    std::cout << out.dump(2) << "\n";
  } else {
    PrintTable(model.value(), options.model, results, missing);
    PrintChecks(checks, said);
    if (measured) PrintMeasured(*measured, options.conformance, context.table);
  }
  return 0;
}

}  // namespace

void AddCoverageCommand(CLI::App& app, CommandContext& context) {
  CLI::App* cmd = app.add_subcommand(
      "coverage", "predict which share of a model each accelerator runs, from published operator lists");
  auto options = std::make_shared<CoverageOptions>();
  cmd->add_option("model", options->model, "the model (.onnx or .tflite)")->required();
  cmd->add_option("--accel", options->accelerators,
                  "accelerators to check, comma-separated (default: every table for the model's format)")
      ->delimiter(',');
  cmd->add_option("--tables", options->tables_dir, "directory of support tables (*.tsv)")
      ->capture_default_str();
  cmd->add_option("--format", options->format, "table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  cmd->add_option("--against", options->against,
                  "targets to compare the prediction with: each runs the model once in its own worker and "
                  "its placement is checked against the table for its device (e.g. ort:xnnpack,litert:xnnpack)")
      ->check(NonEmpty());
  cmd->add_option("--conformance", options->conformance,
                  "a conformance run's store (DIR or its conformance.jsonl): a \"measured\" table beside the "
                  "published lists, what ONNX's node tests of each of the model's operators did on each target")
      ->check(NonEmpty());
  cmd->callback([&context, options] { context.exit_code = RunCoverage(*options, context); });
}

}  // namespace edgebench
