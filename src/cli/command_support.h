// What several subcommands share: the arguments that pass the log level on to workers, and the
// exit status of a plan.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "monitor/cooldown.h"
#include "runner/run_plan.h"

namespace edgebench {

// Rejects an empty value for a flag that takes one (`--out ''`), naming the flag (exit 2).
CLI::Validator NonEmpty();
// A number above 0 that is finite: not nan, not inf.
CLI::Validator FinitePositiveNumber();

// "--verbose" when runtimes' own logs are wanted (debug level), so workers show them too.
std::vector<std::string> WorkerLogArgs();

// How a command runs its plan and where its records go.
struct PlanRunRequest {
  std::string command;  // "run", "llm", "suite": for messages
  std::string format = "table";
  std::string out_dir;  // empty: not stored
  bool in_process = false;
  std::set<std::string> done_keys;  // resume: cases already in the store
  bool fail_on_invalid = false;     // an INVALID verdict makes the exit status 1 (for CI)
  std::optional<CooldownSpec> cooldown;  // --cooldown
  std::string sysfs_root = "/";          // where the cooldown reads temperatures
  std::string trace_path;                // --trace: a Chrome/Perfetto trace of every record
  std::string plan_out;                  // --plan-out (hidden): write the plan there, run nothing
};

// --plan-out FILE (hidden; run, llm): the planned cases written to FILE (plan/plan_file.h) and
// nothing run: how a mix whose workloads share one process plans each of them.
void AddPlanOutOption(CLI::App* cmd, std::string& path);

// --resume and --retry-failed (suite, accuracy, agree): what a command killed mid-way runs again.
struct ResumeFlags {
  bool resume = false;
  bool retry_failed = false;
};
void AddResumeOptions(CLI::App* cmd, ResumeFlags& flags);

// With --resume, the case keys the store in `out_dir` already holds (runner/resume.h); none
// without it or when the store does not exist yet. The store's warnings go to stderr; an
// unreadable store is an error. --resume without --out is an error.
Result<std::set<std::string>> ResumedCaseKeys(const ResumeFlags& flags, const std::string& out_dir,
                                              const std::string& command);

// --min-queries, --min-duration, --max-duration and --seed: how long a tensor case measures and
// what its generated inputs are (run, shapes).
void AddMeasuredPhaseOptions(CLI::App* cmd, RunSettings& settings);

// The store a measuring command (run, llm, shapes) appends to when --out is not given.
inline constexpr const char* kDefaultStoreDir = "results";

// -o,--out DIR (default kDefaultStoreDir) and --no-store, which empties `out_dir`: every
// measuring command keeps its records for report, compare and export unless told not to.
void AddStoreOptions(CLI::App* cmd, std::string& out_dir);

// --trace FILE.json (run, llm, suite): checked before anything runs (its directory must exist).
void AddTraceOption(CLI::App* cmd, std::string& path);
// --profile: per-operator times from the runtime's profiler, after warmup (docs/trace.md).
void AddProfileOption(CLI::App* cmd, bool& profile);

// What running a plan left: its totals, its records when asked for (a command that shows more
// after them, as shapes' matrix), and whether the trace could not be written.
struct PlanRunOutcome {
  RunPlanTotals totals;
  std::vector<Record> records;
  bool trace_failed = false;
};

// Runs `plan` with each record printed in `format` on stdout, stored in `out_dir` and, with a
// trace path, written to the trace; decides no exit status. An error (a bad format or store)
// is said before anything runs.
Result<PlanRunOutcome> RunPlanWithOutput(const std::vector<PlannedCase>& plan, CommandContext& context,
                                         const PlanRunRequest& request, bool keep_records = false);

// RunPlanWithOutput, then the command's exit status (PlanExitCode; 1 also when the trace could
// not be written), or 2, said on stderr, for a bad format or store.
int RunPlanAndReport(const std::vector<PlannedCase>& plan, CommandContext& context,
                     const PlanRunRequest& request);

// 0 when every case measured (a case skipped for want of an artifact is not a failure) and at
// least one case measured or was already in the store; 1 otherwise (said on stderr when
// nothing was measured or a record could not be stored), and, with fail_on_invalid, when a
// measured case is INVALID; 128 + the signal when interrupted.
// Interrupted: what is kept (the records in `out_dir`, or nothing without one) and, for a command
// with --resume, the command line that runs the rest.
int PlanExitCode(const RunPlanTotals& totals, const std::string& command, bool fail_on_invalid = false,
                 const std::string& out_dir = "");

// The command line as the user typed it (main sets it), for the messages that give a command to
// run next: shell-quoted where a word needs it.
void SetCommandLine(int argc, char** argv);
// That command line with --resume added (once).
std::string ResumeCommandLine();

}  // namespace edgebench
