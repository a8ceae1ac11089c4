#include <unistd.h>

#include <algorithm>
#include <clocale>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/command_support.h"
#include "cli/flag_suggestion.h"
#include "core/log.h"
#include "core/version.h"
#include "report/printers.h"

namespace {

// The subcommands a user may type, comma-separated; the hidden `worker` (no description) is
// left out.
std::string CommandList(const CLI::App& app) {
  std::string list;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_description().empty()) continue;
    list += (list.empty() ? "" : ", ") + sub->get_name();
  }
  return list;
}

// After a failed parse: the word the user gave as a command when it names none, else "".
std::string UnknownCommand(const CLI::App& app) {
  if (!app.get_subcommands().empty()) return "";
  for (const std::string& arg : app.remaining()) {
    if (!arg.empty() && arg[0] != '-') return arg;
  }
  return "";
}

// After a failed parse: for each flag the command does not have, the message that refuses it,
// with the nearest flag it does have; "" when the error was not an unknown flag.
std::string UnknownFlags(const CLI::App& app, const CLI::ParseError& e) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e) == nullptr) return "";
  const CLI::App* command = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
  std::vector<std::string> flags;
  for (const CLI::App* scope : {command, &app}) {
    for (const CLI::Option* option : scope->get_options()) {
      for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
    }
  }
  std::string message;
  const std::string prefix = "edgebench" + (command == &app ? std::string() : " " + command->get_name());
  // With fallthrough, what the command did not take is left with the top-level app.
  std::vector<std::string> left = command->remaining();
  if (command != &app) {
    for (const std::string& arg : app.remaining()) {
      if (std::find(left.begin(), left.end(), arg) == left.end()) left.push_back(arg);
    }
  }
  for (const std::string& arg : left) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string nearest = edgebench::NearestFlag(arg, flags);
    message += prefix + ": unknown option '" + arg.substr(0, arg.find('=')) + "'" +
               (nearest.empty() ? "" : "; did you mean " + nearest + "?") + " (" + prefix + " --help lists them)\n";
  }
  return message;
}

}  // namespace

int main(int argc, char** argv) {
  // Numbers in every output use '.' whatever the user's locale (as llama-bench does).
  std::setlocale(LC_NUMERIC, "C");
  edgebench::Registry registry;
  edgebench::RegisterBuiltBackends(registry);
  std::error_code ec;
  std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) self = argv[0];
  edgebench::CommandContext context{registry, self, 0, {}};
  edgebench::SetCommandLine(argc, argv);

  CLI::App app{
      "edgebench: the same model and inputs on every inference runtime, under production-like "
      "load, with the numbers vendor benchmarks leave out."};
  app.set_version_flag("--version", std::string("edgebench ") + edgebench::kEdgebenchVersion);
  app.require_subcommand(1);
  // Subcommands inherit this: options they do not know (-v) are looked up here, so -v works
  // before or after the subcommand.
  app.fallthrough();
  int verbosity = 0;
  app.add_flag("-v,--verbose", verbosity,
               "-v: what runs and progress; -vv: also edgebench's debug messages and the "
               "runtimes' own logs")
      ->configurable(false);
  std::optional<size_t> width;
  app.add_option("--width", width,
                 "widest line of a table, in characters (default: the terminal's width, or COLUMNS; 0: no "
                 "limit). Columns that do not fit are left out, the least important first, and named under "
                 "the table")
      ->configurable(false);
  app.add_option("--columns", context.table.columns,
                 "the table's columns, by header (a header without its unit also names it: p99, target); "
                 "model, target and verdict are always shown")
      ->delimiter(',')
      ->configurable(false);
  app.add_option("--pivot", context.table.pivot,
                 "print one metric as a matrix, a row per model and target, a column per scenario (e.g. "
                 "--pivot p99), instead of the cases' tables")
      ->configurable(false);
  app.parse_complete_callback([&] {
    context.table.width = width ? *width : edgebench::TerminalWidth();
    // Only the record tables of these commands are shaped by --columns and --pivot: elsewhere they
    // would be dropped without a word.
    if (!context.table.columns.empty() || !context.table.pivot.empty()) {
      const auto commands = app.get_subcommands();
      const std::string command = commands.empty() ? "" : commands.front()->get_name();
      if (command != "run" && command != "llm" && command != "suite" && command != "shapes") {
        throw CLI::ValidationError(std::string(context.table.pivot.empty() ? "--columns" : "--pivot") +
                                   " chooses what the record table of run, llm, suite and shapes shows; `edgebench " +
                                   command + "` prints no such table");
      }
    }
    if (!context.table.pivot.empty()) {
      if (const edgebench::Status known =
              edgebench::CheckColumnNames({context.table.pivot}, edgebench::AllColumnHeaders(), "--pivot");
          !known.ok()) {
        throw CLI::ValidationError(known.message());
      }
    }
    if (const edgebench::Status known = edgebench::CheckColumnNames(context.table.columns, edgebench::AllColumnHeaders());
        !known.ok()) {
      throw CLI::ValidationError(known.message());
    }
    // The orchestrator passes the worker --verbose only at debug level (see the cmd_*.cc
    // files): in a worker, any -v means debug, so the runtimes' logs reach the user.
    const bool worker = app.got_subcommand("worker");
    edgebench::SetLogLevel(edgebench::LogLevelForVerbosity(worker && verbosity > 0 ? 2 : verbosity));
  });
  edgebench::AddDevicesCommand(app, context);
  edgebench::AddRunCommand(app, context);
  edgebench::AddAgreeCommand(app, context);
  edgebench::AddDriftCommand(app, context);
  edgebench::AddAccuracyCommand(app, context);
  edgebench::AddLlmCommand(app, context);
  edgebench::AddSuiteCommand(app, context);
  edgebench::AddShapesCommand(app, context);
  edgebench::AddConformanceCommand(app, context);
  edgebench::AddCoverageCommand(app, context);
  edgebench::AddReportCommand(app, context);
  edgebench::AddCompareCommand(app, context);
  edgebench::AddRecommendCommand(app, context);
  edgebench::AddExportCommand(app, context);
  edgebench::AddTuneCommand(app, context);
  edgebench::AddFleetCommand(app, context);
  edgebench::AddWorkerCommand(app, context);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (const std::string unknown = UnknownCommand(app); !unknown.empty()) {
      std::cerr << "edgebench: unknown command '" << unknown << "'; commands: " << CommandList(app)
                << "\n";
      return 2;
    }
    if (const std::string unknown = UnknownFlags(app, e); !unknown.empty()) {
      std::cerr << unknown;
      return 2;
    }
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return context.exit_code;
}
