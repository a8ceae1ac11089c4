// `edgebench export STORE... --out DIR [--format jsonl|csv]`: the records as flat tables, one
// per scenario (DIR/single-stream.jsonl, DIR/server.jsonl, ...), whose columns are the flat
// rows of metrics/flat_record.h, for DuckDB, pandas or a spreadsheet (docs/query.md).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/read_store_arguments.h"
#include "metrics/flat_record.h"
#include "report/printers.h"

namespace edgebench {
namespace {

struct ExportOptions {
  std::vector<std::string> stores;
  std::string out_dir;
  std::string format = "jsonl";
};

// A field as the printers' CSV writes a cell (RFC 4180, formulas neutralised); null is empty.
std::string CsvField(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  return CsvCell(value.is_string() ? value.get<std::string>() : value.dump());
}

// A table's file name: the scenario's name, anything but letters, digits, '-' and '_' made '_'.
std::string FileStem(const std::string& table) {
  std::string stem = table.empty() ? "unknown" : table;
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  }
  return stem;
}

int RunExport(const ExportOptions& o) {
  if (o.format != "jsonl" && o.format != "csv") {
    std::cerr << "edgebench export: unknown --format '" << o.format << "'; use jsonl or csv\n";
    return 2;
  }
  auto records = ReadStoreArguments(o.stores, "export");
  if (!records.ok()) {
    std::cerr << "edgebench export: " << records.error() << "\n";
    return 2;
  }
  if (records.value().empty()) {
    std::cerr << "edgebench export: no records in " << o.stores.size() << " store(s); nothing written\n";
    return 1;
  }
  std::map<std::string, std::vector<nlohmann::ordered_json>> tables;
  for (const Record& r : records.value()) tables[FileStem(ScenarioTable(r.scenario))].push_back(FlattenRecord(r));
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) {
    std::cerr << "edgebench export: cannot create " << o.out_dir << ": " << ec.message() << "\n";
    return 2;
  }
  for (const auto& [table, rows] : tables) {
    const std::string path = (std::filesystem::path(o.out_dir) / (table + "." + o.format)).string();
    std::ofstream out(path, std::ios::trunc);
    if (o.format == "csv") {
      bool first = true;
      for (const FlatColumn& column : FlatColumns()) {
        out << (first ? "" : ",") << column.name;
        first = false;
      }
      out << "\n";
    }
    for (const nlohmann::ordered_json& row : rows) {
      if (o.format == "jsonl") {
        out << row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        continue;
      }
      bool first = true;
      for (const auto& [name, value] : row.items()) {
        out << (first ? "" : ",") << CsvField(value);
        first = false;
      }
      out << "\n";
    }
    out.close();
    if (!out) {
      std::cerr << "edgebench export: could not write " << path << "\n";
      return 2;
    }
    std::cout << path << ": " << rows.size() << " row(s)\n";
  }
  return 0;
}

}  // namespace

void AddExportCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand("export", "write stores as flat tables, one per scenario, for SQL and dataframes");
  cmd->footer(
      "Each record becomes one row of its scenario's table (DIR/single-stream.jsonl, "
      "DIR/server.jsonl for every server:RATE with a rate_qps column, ...): the configuration "
      "and the headline metrics, null where a record has none. The columns are listed in "
      "docs/query.md, with DuckDB queries over the tables and over results.jsonl itself.\n"
      "Exit status: 0 when written, 1 when the stores hold no record, 2 for bad arguments or a "
      "store that cannot be read.");
  cmd->add_option("stores", o->stores, "STORE...: directories holding results.jsonl, or .jsonl files")->required();
  cmd->add_option("-o,--out", o->out_dir, "directory for the tables (created)")->required()->check(NonEmpty());
  cmd->add_option("-f,--format", o->format, "jsonl or csv")->capture_default_str();
  cmd->callback([o, &context] { context.exit_code = RunExport(*o); });
}

}  // namespace edgebench
