// `edgebench coverage MODEL --accel A,B`: the model's operators checked against the published
// operator lists of accelerators that need not be here (data/coverage/*.tsv); see
// docs/coverage.md.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "diagnose/coverage.h"
#include "diagnose/model_ops.h"

namespace edgebench {
namespace {

struct CoverageOptions {
  std::string model;
  std::vector<std::string> accelerators;
  std::string tables_dir = DefaultSupportTablesDir();
  std::string format = "table";
};

std::string Percent(int64_t part, int64_t whole) {
  if (whole <= 0) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(part) / static_cast<double>(whole)
      << "%";
  return out.str();
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

int RunCoverage(const CoverageOptions& options) {
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
  if (options.format == "json") {
    std::cout << ToJson(model.value(), options.model, results, missing).dump(2) << "\n";
  } else {
    PrintTable(model.value(), options.model, results, missing);
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
  cmd->callback([&context, options] { context.exit_code = RunCoverage(*options); });
}

}  // namespace edgebench
