#include <unistd.h>

#include <clocale>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "core/log.h"
#include "core/version.h"

int main(int argc, char** argv) {
  // Numbers in every output use '.' whatever the user's locale (as llama-bench does).
  std::setlocale(LC_NUMERIC, "C");
  edgebench::Registry registry;
  edgebench::RegisterBuiltBackends(registry);
  std::error_code ec;
  std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) self = argv[0];
  edgebench::CommandContext context{registry, self};

  CLI::App app{
      "edgebench: the same model and inputs on every inference runtime, under production-like "
      "load, with the numbers vendor benchmarks leave out."};
  app.set_version_flag("--version", std::string("edgebench ") + edgebench::kEdgebenchVersion);
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "show runtimes' own logs and edgebench's debug messages")
      ->configurable(false);
  app.parse_complete_callback([&] {
    edgebench::SetLogLevel(verbose ? edgebench::LogLevel::kDebug : edgebench::LogLevel::kWarning);
  });
  edgebench::AddDevicesCommand(app, context);
  edgebench::AddRunCommand(app, context);
  edgebench::AddAgreeCommand(app, context);
  edgebench::AddLlmCommand(app, context);
  edgebench::AddSuiteCommand(app, context);
  edgebench::AddWorkerCommand(app, context);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return context.exit_code;
}
