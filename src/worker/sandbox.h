// The worker's sandbox (docs/sandbox.md). A model can be code: a TorchScript `.pt` compiles and
// runs the source it carries, and runtimes load custom operators and pickles. Before a worker
// reads its model, it restricts itself with Landlock (Linux 5.13 and later): no file may be
// written, created, removed, renamed or truncated outside the directories its request names (its
// scratch directory, which is also its TMPDIR, and the files its mode writes) and /dev and /proc
// (device nodes and the process's own files); TCP bind and connect are refused (Landlock ABI 4),
// abstract UNIX sockets and signals outside the worker are refused (ABI 6), and where the
// worker may make a network namespace of its own (root, or CAP_SYS_ADMIN) it has no network at
// all. Reading is not restricted: a model reads its own files, and the runtimes their libraries.
// The domain is inherited by every thread and process the worker starts afterwards, and cannot
// be lifted. What held is recorded in each record (`sandbox`).
#pragma once

#include <string>
#include <vector>

#include "record/record_sandbox.h"

namespace edgebench {

// The environment variable that names a worker's scratch directory (the orchestrator makes it,
// sets TMPDIR to it too, and removes it when the worker has ended).
inline constexpr const char* kWorkerScratchVariable = "EDGEBENCH_WORKER_SCRATCH";
// EDGEBENCH_WORKER_SANDBOX=off runs workers unsandboxed (recorded as such); anything else: on.
inline constexpr const char* kWorkerSandboxVariable = "EDGEBENCH_WORKER_SANDBOX";


// Restricts the calling process (which must still have one thread: Landlock binds the threads
// that exist when it is applied, and later ones inherit it) to writing beneath the directories
// `writable` (each must exist; one that does not is noted and left out) and /dev and /proc.
// Never fails the case: what could not be held is in the report.
SandboxReport ApplyWorkerSandbox(const std::vector<std::string>& writable);


// What a worker's sandbox will be on this machine, for `edgebench devices`: "Landlock ABI 7:
// ..." or why there is none.
std::string SandboxAvailability();

}  // namespace edgebench
