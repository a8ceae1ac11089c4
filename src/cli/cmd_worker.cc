// `edgebench worker`: internal; runs one case for the orchestrator (see runner/worker_process.h).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "cli/commands.h"
#include "runner/worker_process.h"

namespace edgebench {

void AddWorkerCommand(CLI::App& app, CommandContext& context) {
  CLI::App* cmd = app.add_subcommand("worker", "");  // empty description: hidden from --help
  cmd->group("");
  cmd->callback([&context] {
    // stdout carries the protocol only: anything a runtime prints there goes to stderr.
    const int protocol_fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    const int code = WorkerMain(context.registry, protocol_fd);
    ::close(protocol_fd);
    // The answer is written. Leave without running static destructors: runtimes log from
    // them (LiteRT prints "DestroyAccelerator" lines) and may even crash while tearing down,
    // which would turn a finished case into a crash.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
  });
}

}  // namespace edgebench
