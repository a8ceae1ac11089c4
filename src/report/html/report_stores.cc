// The stores an HTML report reads (report_data.h, ReadReportStores): records deduplicated by
// id, token drift rows beside them, and a warning for every line left out.
#include <filesystem>
#include <fstream>
#include <set>

#include "report/html/report_data.h"
#include "report/store.h"

namespace edgebench {

using nlohmann::json;

Result<ReportInputs> ReadReportStores(const std::vector<std::string>& stores) {
  ReportInputs inputs;
  if (stores.empty()) {
    return Status::Error("no store given: name a results directory or a .jsonl file");
  }
  std::set<std::string> ids;
  for (const std::string& given : stores) {
    std::error_code ec;
    std::filesystem::path path = given;
    std::filesystem::path drift_path;
    std::filesystem::path conformance_path;
    if (std::filesystem::is_directory(path, ec)) {
      drift_path = path / "token_drift.jsonl";
      conformance_path = path / "conformance.jsonl";
      path /= "results.jsonl";
      if (!std::filesystem::exists(path, ec) && !std::filesystem::exists(drift_path, ec) &&
          !std::filesystem::exists(conformance_path, ec)) {
        return Status::Error("store '" + given +
                             "' holds no results.jsonl: give a directory that `edgebench run "
                             "--out` wrote, or a .jsonl file");
      }
    } else if (!std::filesystem::exists(path, ec)) {
      return Status::Error("store '" + given +
                           "' does not exist: give a results directory or a .jsonl file");
    }
    if (path.filename() == "conformance.jsonl") {
      conformance_path = path;
      path.clear();
    }
    ReportStore store{given, path.empty() ? conformance_path.string() : path.string()};
    const size_t index = inputs.stores.size();
    size_t conformance_read = 0;
    if (!conformance_path.empty() && std::filesystem::exists(conformance_path, ec)) {
      auto cells = ReadConformanceStore(conformance_path.string());
      if (!cells.ok()) return Status::Error("store '" + given + "': " + cells.error());
      for (const std::string& w : cells.value().warnings) inputs.warnings.push_back(w);
      conformance_read = cells.value().cells.size();
      for (ConformanceCell& cell : cells.value().cells) inputs.conformance.push_back(std::move(cell));
    }
    if (!path.empty() && std::filesystem::exists(path, ec)) {
      auto contents = ReadStore(path.string());
      if (!contents.ok()) return Status::Error("store '" + given + "': " + contents.error());
      // ReadStore's warnings name the file and line already.
      for (const std::string& w : contents.value().warnings) inputs.warnings.push_back(w);
      for (Record& r : contents.value().records) {
        ++store.records_read;
        if (!r.id.empty() && !ids.insert(r.id).second) {
          ++store.duplicates;
          continue;
        }
        inputs.records.push_back(std::move(r));
        inputs.record_store.push_back(index);
      }
      if (store.duplicates > 0) {
        inputs.warnings.push_back(path.string() + ": " + std::to_string(store.duplicates) +
                                  " records already read from an earlier store (same id) were "
                                  "left out");
      }
    }
    if (!drift_path.empty() && std::filesystem::exists(drift_path, ec)) {
      std::ifstream in(drift_path);
      int line_number = 0;
      for (std::string line; std::getline(in, line);) {
        ++line_number;
        if (line.empty()) continue;
        json j = json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || j.value("kind", "") != "token_drift") {
          inputs.warnings.push_back(drift_path.string() + ": line " + std::to_string(line_number) +
                                    " is not a token drift row; skipped");
          continue;
        }
        inputs.token_drift.push_back(std::move(j));
      }
    }
    if (store.records_read == 0 && inputs.token_drift.empty() && conformance_read == 0) {
      std::string why = "store '" + given + "' (" + path.string() + ") holds no records";
      for (const std::string& w : inputs.warnings) {
        if (w.rfind(path.string() + ":", 0) == 0) {
          why += "; line " + w.substr(path.string().size() + 1);
        }
      }
      return Status::Error(why);
    }
    inputs.stores.push_back(store);
  }
  inputs.labels = CaseLabels(inputs.records);
  return inputs;
}

}  // namespace edgebench
