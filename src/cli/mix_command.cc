#include "cli/mix_command.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/record_output.h"
#include "core/strings.h"
#include "report/printers.h"
#include "report/text_table.h"
#include "runner/mix_run.h"

namespace edgebench {
namespace {

std::string Figure(const std::optional<double>& value, const char* format) {
  if (!value) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, *value);
  return buffer;
}

std::string Ratio(const MixInterference& row) {
  if (!row.ratio) return "-";
  std::string text = Figure(row.ratio, "x%.2f");
  if (row.ratio_low && row.ratio_high) text += " [" + Figure(row.ratio_low, "%.2f") + ", " + Figure(row.ratio_high, "%.2f") + "]";
  return text;
}

std::string Objectives(const MixInterference& row) {
  std::string text;
  for (const MixObjectiveResult& o : row.objectives) {
    if (!text.empty()) text += "; ";
    text += o.objective.text + " " + (o.met ? "met" : o.value ? "NOT met" : "no figure");
  }
  return text.empty() ? "-" : text;
}

// Each round's span in which every workload was measured, by round.
using RoundOverlaps = std::map<int, std::optional<MixWindow>>;

void PrintInterference(const std::string& mix, const std::vector<MixInterference>& rows,
                       const RoundOverlaps& overlaps, size_t width, std::ostream& out) {
  std::vector<TextColumn> columns = {
      {"workload", false, 0},       {"metric", false, 0},        {"alone", true, 1},
      {"mixed", true, 1},           {"mixed / alone [95%]", true, 0}, {"rounds", true, 2}, {"mixed queries", true, 2},
      {"dropped alone", true, 2},
      {"dropped mixed", true, 2},   {"mixed status", false, 0},  {"objectives", false, 1, true}};
  std::vector<TextRow> table;
  for (const MixInterference& row : rows) {
    table.push_back({{row.workload, row.metric, Figure(row.alone, "%.2f"), Figure(row.mixed, "%.2f"), Ratio(row),
                      std::to_string(row.rounds),
                      std::to_string(row.mixed_samples) + " of " + std::to_string(row.mixed_samples_total),
                      row.dropped_alone ? Figure(*row.dropped_alone * 100, "%.1f%%") : "-",
                      row.dropped_mixed ? Figure(*row.dropped_mixed * 100, "%.1f%%") : "-",
                      row.mixed_status + (row.mixed_status == "ok" && !row.mixed_valid ? " (INVALID)" : ""),
                      Objectives(row)},
                     ""});
  }
  // The rounds column only where the mix has rounds.
  if (overlaps.size() <= 1) {
    constexpr size_t kRounds = 5;
    columns.erase(columns.begin() + kRounds);
    for (TextRow& row : table) row.cells.erase(row.cells.begin() + kRounds);
  }
  out << "\ninterference in mix " << mix << " (each workload beside the others against itself alone):\n"
      << RenderTextTable(columns, table, TableLayout{width, {}, {}});
  std::string spans;
  bool never = false;
  for (const auto& [round, overlap] : overlaps) {
    if (!overlap) continue;
    if (!spans.empty()) spans += ", ";
    if (overlaps.size() > 1) spans += "round " + std::to_string(round) + " ";
    spans += Figure(std::max(0.0, overlap->seconds()), "%.1f") + " s";
    never = never || overlap->seconds() <= 0;
  }
  if (!spans.empty()) {
    out << "mixed figures: the queries that arrived while every workload was in its measured phase (" << spans
        << (never ? "; 0 s: they never were at once, run longer or with less warmup" : "") << ")\n";
  }
}

}  // namespace

int RunMixCommand(const MixCommandOptions& o, CommandContext& context) {
  auto mix = ReadMixFile(o.path);
  if (!mix.ok()) {
    std::cerr << "edgebench run: " << mix.error() << "\n";
    return 2;
  }
  auto printer = MakePrinter(o.format, std::cout, context.table);
  if (!printer.ok()) {
    std::cerr << "edgebench run: " << printer.error() << "\n";
    return 2;
  }
  auto output = RecordOutput::Open(printer.take(), o.out_dir);
  if (!output.ok()) {
    std::cerr << "edgebench run: " << output.error() << "\n";
    return 2;
  }
  // Each process's own store, stdout and stderr: beside the store, or in a temporary folder.
  const std::string base = o.out_dir.empty() ? std::filesystem::temp_directory_path().string() : o.out_dir;
  MixRunOptions options;
  options.executable = context.executable;
  options.work_dir = base + "/mix-" + mix.value().name + "-" + std::to_string(::getpid());
  options.run_id = mix.value().name + "@" + UtcNowIso8601() + "/" + std::to_string(::getpid());
  options.no_monitor = o.no_monitor;
  options.registry = &context.registry;
  options.progress = [&](const std::string& line) { std::cerr << "edgebench: mix " << mix.value().name << ": " << line << "\n"; };
  auto processes = RunMix(mix.value(), options);
  if (!processes.ok()) {
    std::cerr << "edgebench run: mix " << mix.value().name << ": " << processes.error() << "\n";
    return 1;
  }
  output.value().Begin();
  for (const MixProcess& p : processes.value()) {
    for (const Record& r : p.records) output.value().Emit(r, "run");
    if (p.records.empty()) {
      std::cerr << "edgebench: mix " << mix.value().name << ": " << p.phase << " " << p.workload
                << " stored no record (exit " << p.exit_code << "); its log: " << p.log_path << "\n";
    }
  }
  output.value().End();
  const auto rows = JudgeMix(mix.value(), processes.value());
  const bool text = o.format == "table" || o.format == "markdown";
  std::map<int, std::vector<const Record*>> mixed;
  for (const MixProcess& p : processes.value()) {
    if (p.phase == "mixed" && !p.records.empty()) mixed[p.round].push_back(&p.records.front());
  }
  RoundOverlaps overlaps;
  for (const auto& [round, records] : mixed) overlaps[round] = MixOverlap(records);
  PrintInterference(mix.value().name, rows, overlaps, context.table.width, text ? std::cout : std::cerr);
  if (mix.value().isolation == "together") {
    (text ? std::cout : std::cerr) << "isolation: together: the mixed phase's workloads ran on threads of one process "
                                      "(their CPU and memory series are the process's, all of theirs; a crash took "
                                      "them all)\n";
  }
  bool met = true;
  for (const MixInterference& row : rows) met = met && row.objectives_met && row.mixed_status == "ok";
  (text ? std::cout : std::cerr) << "mix " << mix.value().name << ": "
                                 << (met ? "every workload ran beside the others and met its objectives"
                                         : "NOT met: a workload failed beside the others or missed an objective")
                                 << " (the processes' logs: " << options.work_dir << ")\n";
  return met ? 0 : 1;
}

}  // namespace edgebench
