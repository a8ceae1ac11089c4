#include "record/conformance_cell.h"

#include <cmath>
#include <filesystem>
#include <fstream>

namespace edgebench {

namespace {

const std::vector<std::pair<ConformanceState, const char*>>& ConformanceStateNames() {
  static const std::vector<std::pair<ConformanceState, const char*>> names = {
      {ConformanceState::kPass, "pass"},       {ConformanceState::kWrong, "wrong"},
      {ConformanceState::kRefused, "refused"}, {ConformanceState::kError, "error"},
      {ConformanceState::kCrashed, "crashed"}, {ConformanceState::kTimeout, "timeout"},
      {ConformanceState::kUntestable, "untestable"},
  };
  return names;
}

// A field of `json` as T; an error names it.
template <typename T>
Status ReadConformanceField(const nlohmann::json& json, const char* name, T& out) {
  if (!json.contains(name)) return Status::Error(std::string("no field '") + name + "'");
  try {
    out = json.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    return Status::Error(std::string("field '") + name + "' has the wrong type");
  }
  return Status::Ok();
}

}  // namespace

std::string ConformanceStateName(ConformanceState state) {
  for (const auto& [s, name] : ConformanceStateNames()) {
    if (s == state) return name;
  }
  return "error";
}

Result<ConformanceState> ParseConformanceState(const std::string& name) {
  for (const auto& [s, n] : ConformanceStateNames()) {
    if (name == n) return s;
  }
  return Status::Error("'" + name + "' is not a conformance state (pass, wrong, refused, error, crashed, timeout, "
                       "untestable)");
}

const std::vector<ConformanceState>& AllConformanceStates() {
  static const std::vector<ConformanceState> states = [] {
    std::vector<ConformanceState> all;
    for (const auto& [s, name] : ConformanceStateNames()) all.push_back(s);
    return all;
  }();
  return states;
}

nlohmann::json ConformanceCellToJson(const ConformanceCell& cell) {
  nlohmann::json j = {
      {"kind", kConformanceCellKind}, {"target", cell.target},
      {"runtime", cell.runtime},      {"runtime_version", cell.runtime_version},
      {"onnx_version", cell.onnx_version}, {"case", cell.case_name},
      {"op", cell.op},                {"domain", cell.domain},
      {"family", cell.family},        {"expanded", cell.expanded},
      {"state", ConformanceStateName(cell.state)}, {"detail", cell.detail},
      {"ran_on", cell.ran_on},        {"fell_back", cell.fell_back},
      {"run_ms", cell.run_ms},
  };
  // JSON has no NaN: an error that is NaN (NaN met a number) is written as a string.
  if (cell.max_error) {
    j["max_error"] = std::isfinite(*cell.max_error) ? nlohmann::json(*cell.max_error)
                                                    : nlohmann::json(std::to_string(*cell.max_error));
  }
  return j;
}

Result<ConformanceCell> ConformanceCellFromJson(const nlohmann::json& json) {
  ConformanceCell cell;
  std::string state;
  for (Status s : {ReadConformanceField(json, "target", cell.target), ReadConformanceField(json, "runtime", cell.runtime),
                   ReadConformanceField(json, "runtime_version", cell.runtime_version),
                   ReadConformanceField(json, "onnx_version", cell.onnx_version), ReadConformanceField(json, "case", cell.case_name),
                   ReadConformanceField(json, "op", cell.op), ReadConformanceField(json, "domain", cell.domain),
                   ReadConformanceField(json, "family", cell.family), ReadConformanceField(json, "expanded", cell.expanded),
                   ReadConformanceField(json, "state", state), ReadConformanceField(json, "detail", cell.detail),
                   ReadConformanceField(json, "ran_on", cell.ran_on), ReadConformanceField(json, "fell_back", cell.fell_back),
                   ReadConformanceField(json, "run_ms", cell.run_ms)}) {
    if (!s.ok()) return Status::Error("a conformance cell: " + s.message());
  }
  auto parsed = ParseConformanceState(state);
  if (!parsed.ok()) return Status::Error("a conformance cell: " + parsed.error());
  cell.state = parsed.value();
  if (json.contains("max_error")) {
    const auto& e = json.at("max_error");
    if (e.is_number()) {
      cell.max_error = e.get<double>();
    } else if (e.is_string()) {
      cell.max_error = std::strtod(e.get<std::string>().c_str(), nullptr);
    }
  }
  return cell;
}

nlohmann::json ConformanceSummaryToJson(const ConformanceSummary& summary) {
  return {{"kind", kConformanceSummaryKind},
          {"target", summary.target},
          {"runtime", summary.runtime},
          {"runtime_version", summary.runtime_version},
          {"onnx_version", summary.onnx_version},
          {"ops", summary.ops},
          {"states", summary.states},
          {"fell_back", summary.fell_back},
          {"host", summary.host},
          {"edgebench_version", summary.edgebench_version}};
}

Result<ConformanceSummary> ConformanceSummaryFromJson(const nlohmann::json& json) {
  ConformanceSummary summary;
  for (Status s : {ReadConformanceField(json, "target", summary.target), ReadConformanceField(json, "runtime", summary.runtime),
                   ReadConformanceField(json, "runtime_version", summary.runtime_version),
                   ReadConformanceField(json, "onnx_version", summary.onnx_version), ReadConformanceField(json, "ops", summary.ops),
                   ReadConformanceField(json, "states", summary.states), ReadConformanceField(json, "fell_back", summary.fell_back),
                   ReadConformanceField(json, "host", summary.host),
                   ReadConformanceField(json, "edgebench_version", summary.edgebench_version)}) {
    if (!s.ok()) return Status::Error("a conformance summary: " + s.message());
  }
  return summary;
}

Result<std::string> ConformanceStorePath(const std::string& store) {
  std::error_code ec;
  if (std::filesystem::is_directory(store, ec)) {
    const std::string file = (std::filesystem::path(store) / "conformance.jsonl").string();
    if (!std::filesystem::exists(file, ec)) {
      return Status::Error("'" + store + "' holds no conformance.jsonl: give the --out directory of an "
                           "`edgebench conformance` run, or its conformance.jsonl");
    }
    return file;
  }
  if (!std::filesystem::exists(store, ec)) {
    return Status::Error("'" + store + "' does not exist: give the --out directory of an `edgebench conformance` "
                         "run, or its conformance.jsonl");
  }
  return store;
}

Result<ConformanceStore> ReadConformanceStore(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read '" + path + "'");
  ConformanceStore store;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    const auto json = nlohmann::json::parse(line, nullptr, false);
    const std::string where = path + " line " + std::to_string(number);
    if (json.is_discarded() || !json.is_object()) {
      store.warnings.push_back(where + " is not JSON (torn by a kill?): skipped");
      continue;
    }
    const std::string kind = json.value("kind", "");
    if (kind == kConformanceCellKind) {
      auto cell = ConformanceCellFromJson(json);
      if (!cell.ok()) {
        store.warnings.push_back(where + ": " + cell.error() + ": skipped");
        continue;
      }
      store.cells.push_back(cell.take());
    } else if (kind == kConformanceSummaryKind) {
      auto summary = ConformanceSummaryFromJson(json);
      if (!summary.ok()) {
        store.warnings.push_back(where + ": " + summary.error() + ": skipped");
        continue;
      }
      store.summaries.push_back(summary.take());
    } else {
      store.warnings.push_back(where + " is not a conformance cell or summary: skipped");
    }
  }
  return store;
}

std::string ConformanceColumn::Label() const {
  return target + " (" + runtime + " " + runtime_version + ")";
}

std::vector<ConformanceColumn> ConformanceColumns(const std::vector<ConformanceCell>& cells) {
  std::vector<ConformanceColumn> columns;
  std::map<std::string, size_t> column_of;
  std::vector<std::map<std::string, size_t>> case_of;
  for (const ConformanceCell& cell : cells) {
    const std::string key = cell.target + "\n" + cell.runtime_version + "\n" + cell.onnx_version;
    auto [it, added] = column_of.emplace(key, columns.size());
    if (added) {
      columns.push_back({cell.target, cell.runtime, cell.runtime_version, cell.onnx_version, {}});
      case_of.emplace_back();
    }
    ConformanceColumn& column = columns[it->second];
    auto [c, first] = case_of[it->second].emplace(cell.case_name, column.cells.size());
    if (first) {
      column.cells.push_back(cell);
    } else {
      column.cells[c->second] = cell;
    }
  }
  return columns;
}

}  // namespace edgebench
