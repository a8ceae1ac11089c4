#include "diagnose/coverage.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace edgebench {
namespace {

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, '\t')) cells.push_back(Trim(cell));
  return cells;
}

bool ParseOpsetRange(const std::string& text, SupportRow& row) {
  try {
    if (text.empty() || text == "-") return true;
    if (text.back() == '+') {
      row.min_opset = std::stoll(text.substr(0, text.size() - 1));
      return true;
    }
    const size_t dash = text.find('-');
    if (dash == std::string::npos || dash == 0) return false;
    row.min_opset = std::stoll(text.substr(0, dash));
    row.max_opset = std::stoll(text.substr(dash + 1));
    return row.min_opset <= row.max_opset;
  } catch (const std::exception&) {
    return false;
  }
}

std::string NodeKey(const ModelNode& node, ModelFormat format) {
  if (format == ModelFormat::kOnnx && node.domain != "ai.onnx") return node.domain + ":" + node.op_type;
  if (format == ModelFormat::kTflite && node.domain == "custom") return "custom:" + node.op_type;
  return node.op_type;
}

}  // namespace

Result<SupportTable> ParseSupportTable(const std::string& text, const std::string& path) {
  SupportTable table;
  table.path = path;
  table.accelerator = std::filesystem::path(path).filename().string();
  table.accelerator = table.accelerator.substr(0, table.accelerator.find('.'));
  const auto error = [&path](int line, const std::string& why) {
    return Status::Error("support table '" + path + "'" +
                         (line > 0 ? " line " + std::to_string(line) : std::string()) + ": " + why);
  };
  std::string format;
  std::stringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (Trim(line).empty()) continue;
    if (line[0] == '#') {
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      const std::string key = Trim(line.substr(1, colon - 1));
      const std::string value = Trim(line.substr(colon + 1));
      if (key == "source") table.source = value;
      if (key == "describes") table.describes = value;
      if (key == "read") table.read_on = value;
      if (key == "format") format = value;
      continue;
    }
    const std::vector<std::string> cells = SplitTabs(line);
    SupportRow row;
    std::string op = cells.empty() ? "" : cells[0];
    if (op.empty()) return error(number, "a row without an operator");
    if (const size_t colon = op.find(':'); colon != std::string::npos) {
      row.domain = op.substr(0, colon);
      op = op.substr(colon + 1);
    }
    row.op = op;
    if (cells.size() > 1 && !ParseOpsetRange(cells[1], row)) {
      return error(number, "opsets '" + cells[1] + "' is not '-', 'N+' or 'N-M'");
    }
    if (cells.size() > 2) row.limit = cells[2];
    table.rows.push_back(std::move(row));
  }
  if (table.source.empty()) return error(0, "no '# source:' line naming the document it transcribes");
  if (table.describes.empty()) return error(0, "no '# describes:' line (runtime and version)");
  if (table.read_on.empty()) return error(0, "no '# read:' line (the date the source was read)");
  if (format == "onnx") {
    table.format = ModelFormat::kOnnx;
  } else if (format == "tflite") {
    table.format = ModelFormat::kTflite;
  } else {
    return error(0, "'# format:' must be onnx or tflite, not '" + format + "'");
  }
  for (SupportRow& row : table.rows) {
    if (table.format == ModelFormat::kOnnx && row.domain.empty()) row.domain = "ai.onnx";
  }
  if (table.rows.empty()) return error(0, "no operator rows");
  return table;
}

Result<std::vector<SupportTable>> LoadSupportTables(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Status::Error("support tables directory '" + dir +
                         "' does not exist; pass --tables DIR (the tables are data/coverage in "
                         "edgebench's source tree)");
  }
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".tsv") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<SupportTable> tables;
  for (const std::string& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    auto table = ParseSupportTable(text.str(), path);
    if (!table.ok()) return table.status();
    tables.push_back(table.take());
  }
  if (tables.empty()) return Status::Error("no support tables (*.tsv) in '" + dir + "'");
  return tables;
}

std::string DefaultSupportTablesDir() {
#ifdef EDGEBENCH_COVERAGE_TABLES
  return EDGEBENCH_COVERAGE_TABLES;
#else
  return "data/coverage";
#endif
}

bool Supports(const SupportTable& table, const ModelNode& node, const ModelOps& model) {
  for (const SupportRow& row : table.rows) {
    if (row.op != node.op_type) continue;
    if (table.format == ModelFormat::kOnnx) {
      if (row.domain != node.domain) continue;
      const auto opset = model.opsets.find(node.domain);
      if (opset != model.opsets.end()) {
        if (row.min_opset > 0 && opset->second < row.min_opset) continue;
        if (row.max_opset > 0 && opset->second > row.max_opset) continue;
      }
    } else if (node.domain == "custom") {
      continue;  // tables list builtin operators only
    }
    return true;
  }
  return false;
}

Coverage ComputeCoverage(const ModelOps& model, const SupportTable& table) {
  Coverage coverage;
  coverage.accelerator = table.accelerator;
  coverage.source = table.source;
  coverage.describes = table.describes;
  coverage.read_on = table.read_on;
  std::map<std::string, int64_t> unsupported;
  std::set<std::string> limits;
  bool previous_supported = false;
  for (const ModelNode& node : model.nodes) {
    ++coverage.total_nodes;
    coverage.total_parameter_bytes += node.parameter_bytes;
    const bool supported = Supports(table, node, model);
    if (supported) {
      ++coverage.supported_nodes;
      coverage.supported_parameter_bytes += node.parameter_bytes;
      if (!previous_supported) ++coverage.partitions;
      for (const SupportRow& row : table.rows) {
        if (row.op == node.op_type && !row.limit.empty()) limits.insert(row.op + ": " + row.limit);
      }
    } else {
      std::string key = NodeKey(node, model.format);
      // Listed, but not for this opset: say so, the fix differs (re-export at another opset).
      const bool listed = std::any_of(table.rows.begin(), table.rows.end(), [&](const SupportRow& row) {
        return row.op == node.op_type && (model.format != ModelFormat::kOnnx || row.domain == node.domain);
      });
      if (listed && model.format == ModelFormat::kOnnx) {
        const auto opset = model.opsets.find(node.domain);
        if (opset != model.opsets.end()) key += " (opset " + std::to_string(opset->second) + ")";
      }
      ++unsupported[key];
    }
    previous_supported = supported;
  }
  for (const auto& [op, nodes] : unsupported) coverage.unsupported.push_back({op, nodes});
  std::stable_sort(coverage.unsupported.begin(), coverage.unsupported.end(),
                   [](const OpCount& a, const OpCount& b) { return a.nodes > b.nodes; });
  coverage.limits.assign(limits.begin(), limits.end());
  return coverage;
}

}  // namespace edgebench
