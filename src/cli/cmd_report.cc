// `edgebench report STORE... -o report.html`: the records of one or more stores as one
// self-contained HTML page, with tables and charts for every kind of record found
// (docs/report.md). The page opens offline: the data and the chart library are inline.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "core/file_replace.h"
#include "report/html/report_data.h"
#include "report/html/report_page.h"
#include "report/html/report_tradeoffs.h"

namespace edgebench {
namespace {

struct ReportOptions {
  std::vector<std::string> stores;
  std::string out;
  std::string title = "edgebench report";
  TradeoffsQuery tradeoffs;  // the trade-offs section's objectives and constraints
};

// Writes `text` to a temporary file beside `path`, then renames it over `path`: a reader never
// sees half a report, and a failed write leaves an earlier report as it was.
Status WriteAtomically(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  const std::filesystem::path directory = target.has_parent_path() ? target.parent_path() : ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec)) {
    return Status::Error("cannot write '" + path + "': the directory '" + directory.string() +
                         "' does not exist; create it or give another -o");
  }
  if (std::filesystem::is_directory(target, ec)) {
    return Status::Error("cannot write '" + path + "': it is a directory; give a file name, e.g. " +
                         (target / "report.html").string());
  }
  return ReplaceFileContents(path, text);
}

std::string HumanSize(uintmax_t bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (bytes >= 1024 * 1024) {
    std::snprintf(text, sizeof text, "%.1f MiB", b / (1024.0 * 1024.0));
  } else {
    std::snprintf(text, sizeof text, "%.1f KiB", b / 1024.0);
  }
  return text;
}

int Report(const ReportOptions& options) {
  auto inputs = ReadReportStores(options.stores);
  if (!inputs.ok()) {
    std::cerr << "edgebench report: " << inputs.error() << "\n";
    return 1;
  }
  ReportInputs& in = inputs.value();
  for (const std::string& w : in.warnings) std::cerr << "edgebench report: warning: " << w << "\n";
  in.title = options.title;
  if (Status s = CheckTradeoffsQuery(options.tradeoffs); !s.ok()) {
    std::cerr << "edgebench report: " << s.message() << "\n";
    return 2;
  }
  in.tradeoffs = TradeoffsSection(in.records, options.tradeoffs);
  const std::string page = RenderReportPage(BuildReportData(in));
  if (Status s = WriteAtomically(options.out, page); !s.ok()) {
    std::cerr << "edgebench report: " << s.message() << "\n";
    return 1;
  }
  const char* stores = in.stores.size() == 1 ? " store" : " stores";
  std::cout << options.out << " (" << HumanSize(page.size()) << ", " << in.records.size()
            << " records from " << in.stores.size() << stores << ")\n";
  return 0;
}

}  // namespace

void AddReportCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "one self-contained HTML page of the records of one or more stores: tables and charts that "
      "open offline (docs/report.md)");
  cmd->footer(
      "Example: edgebench report results/ other-run/results.jsonl -o report.html\n"
      "Exit status: 0 when the report was written, 1 when a store is missing or holds no "
      "records or the file cannot be written, 2 for bad arguments.");
  cmd->add_option("stores", options->stores,
                  "STORE...: directories holding results.jsonl (and token_drift.jsonl), or "
                  ".jsonl files; records of several stores are merged (a record id read twice "
                  "counts once)")
      ->required();
  cmd->add_option("-o,--out", options->out, "the HTML file to write")
      ->required()
      ->check(NonEmpty());
  cmd->add_option("--title", options->title, "the page's title")->capture_default_str();
  cmd->add_option("--objective", options->tradeoffs.objectives,
                  "the trade-offs section's objectives, as `recommend --objective` (two or more: "
                  "the first two are the axes); default per model: p99,accuracy with accuracy "
                  "records, else p99,memory (peak RSS)");
  cmd->add_option("--constraint", options->tradeoffs.constraints,
                  "the trade-offs section's constraints, as `recommend --constraint`");
  cmd->callback([options, &context] { context.exit_code = Report(*options); });
}

}  // namespace edgebench
