// Subcommands: each file adds one to the CLI11 app and sets the exit code when it runs.
#pragma once

#include <CLI/CLI.hpp>

#include "backends/registry.h"
#include "report/text_table.h"

namespace edgebench {

struct CommandContext {
  Registry& registry;
  std::string executable;  // this program, for worker processes
  int exit_code = 0;
  TableLayout table;  // --width (or the terminal's) and --columns, for every text table
};

void AddDevicesCommand(CLI::App& app, CommandContext& context);
void AddRunCommand(CLI::App& app, CommandContext& context);
void AddAgreeCommand(CLI::App& app, CommandContext& context);
void AddDriftCommand(CLI::App& app, CommandContext& context);
void AddAccuracyCommand(CLI::App& app, CommandContext& context);
void AddLlmCommand(CLI::App& app, CommandContext& context);
void AddSuiteCommand(CLI::App& app, CommandContext& context);
void AddShapesCommand(CLI::App& app, CommandContext& context);
void AddConformanceCommand(CLI::App& app, CommandContext& context);
void AddWorkerCommand(CLI::App& app, CommandContext& context);
void AddCoverageCommand(CLI::App& app, CommandContext& context);
void AddReportCommand(CLI::App& app, CommandContext& context);
void AddCompareCommand(CLI::App& app, CommandContext& context);
void AddRecommendCommand(CLI::App& app, CommandContext& context);
void AddExportCommand(CLI::App& app, CommandContext& context);
void AddTuneCommand(CLI::App& app, CommandContext& context);
void AddFleetCommand(CLI::App& app, CommandContext& context);

}  // namespace edgebench
