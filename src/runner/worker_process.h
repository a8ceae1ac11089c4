// Crash isolation: each case runs in a child process (`edgebench worker`), which reads its
// CaseSpec as JSON on stdin and writes JSON lines on stdout: {"stage": ...} as each stage
// starts, then {"record": ...}. A segfault, abort, hang or out-of-memory kill in a runtime
// becomes a record with status crashed or timeout, and the run goes on.
#pragma once

#include <string>

#include "backends/registry.h"
#include "report/record.h"
#include "runner/case_spec.h"

namespace edgebench {

// Runs `spec` in a child process of `executable` (normally /proc/self/exe) and returns its
// record, or a crashed/timeout/failed record that says what happened and at which stage.
Record RunCaseInWorker(const std::string& executable, const CaseSpec& spec,
                       const Registry& registry, const std::vector<std::string>& extra_args = {});

// The child's side: reads the spec from stdin, runs it, writes the protocol to `protocol_fd`.
int WorkerMain(Registry& registry, int protocol_fd);

}  // namespace edgebench
