// `edgebench worker`: internal; runs one case for the orchestrator (see runner/worker_process.h).
#include <fcntl.h>
#include <unistd.h>

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
    context.exit_code = WorkerMain(context.registry, protocol_fd);
    // The protocol stays open to the end: a runtime that crashes while the process exits
    // (ONNX Runtime's oneDNN provider does, seen here) still shows in the record's notes.
  });
}

}  // namespace edgebench
