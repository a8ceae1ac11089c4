// What held of a worker's sandbox (worker/sandbox.h, docs/sandbox.md), as each record keeps it
// (`sandbox`): whether Landlock restricted the worker's writes, beneath which directories it
// could write, and what of the network it could reach.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

struct SandboxReport {
  bool applied = false;              // Landlock restricts the worker's writes
  int landlock_abi = 0;              // the kernel's Landlock ABI version; 0: none
  std::vector<std::string> writable;  // the directories writes are allowed beneath
  bool tcp_refused = false;          // Landlock refuses TCP bind and connect
  bool scoped = false;               // abstract UNIX sockets and signals stay inside the worker
  bool network_namespace = false;    // an empty network namespace of its own: no network at all
  std::string not_applied;           // why not, when !applied
  std::vector<std::string> notes;    // what could not be held in part ("no network namespace: ...")
};

// {"applied": ..., "landlock_abi": ..., "writable": [...], "tcp_refused": ..., ...}
nlohmann::json SandboxReportToJson(const SandboxReport& report);
Result<SandboxReport> SandboxReportFromJson(const nlohmann::json& json);

// One line for people: "sandboxed (Landlock ABI 7): writes only beneath A, B, /dev, /proc; no
// network" or "not sandboxed: WHY".
std::string SandboxSummary(const SandboxReport& report);

}  // namespace edgebench
