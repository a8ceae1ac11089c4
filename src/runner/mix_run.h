// Running a mix (docs/mixes.md): each workload alone (before or after, as the file says), then
// all of them at once (in rounds, the order alternating, where the file asks), each as its own
// `edgebench run` or `edgebench llm` process with its own workers, so that one that crashes
// leaves the others measured; or, with `isolation: together`, the mixed phase's workloads on
// threads of one worker process (runner/mix_together.h). Their records come back tagged
// with the mix, the workload and the phase; each workload's figures beside the others are then
// set against its figures alone (a ratio with a bootstrap interval) and its objectives.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "metrics/mix_interference.h"
#include "plan/mix_file.h"
#include "record/record.h"

namespace edgebench {

struct MixRunOptions {
  std::string executable;  // this edgebench, run once per workload and phase
  std::string work_dir;    // each process's store, stdout and stderr, under PHASE/WORKLOAD/
  std::string run_id;      // the records' mix.run: this invocation's, unique in a store
  bool no_monitor = false;
  const Registry* registry = nullptr;  // isolation: together: the records of workloads a crash lost
  std::function<void(const std::string&)> progress;  // a line per phase and workload
};

// A workload's process in one phase: its command line, how it ended and what it measured.
struct MixProcess {
  std::string workload;
  std::string phase;  // "alone" or "mixed"
  int round = 1;
  std::vector<std::string> argv;  // isolation: together: the shared worker's (planned by this argv + --plan-out)
  int exit_code = -1;  // the process's; 128 + N when killed by signal N
  int64_t phase_start_ns = 0, start_ns = 0, end_ns = 0;  // steady clock: the phase's, started, reaped
  std::string log_path;  // its stderr
  std::vector<Record> records;  // tagged with the mix; empty when it died before storing one
};

// The command line of `workload` in a phase, storing into `out_dir`.
std::vector<std::string> MixWorkloadArguments(const MixSpec& mix, const MixWorkload& workload,
                                              const std::string& executable, const std::string& out_dir,
                                              bool no_monitor);

// Runs the phases; an error only when a process could not be started or its folder made.
Result<std::vector<MixProcess>> RunMix(const MixSpec& mix, const MixRunOptions& options);

// Each workload's interference, from the processes' records.
std::vector<MixInterference> JudgeMix(const MixSpec& mix, const std::vector<MixProcess>& processes);

}  // namespace edgebench
