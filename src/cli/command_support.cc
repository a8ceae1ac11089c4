#include "cli/command_support.h"

#include <cmath>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/record_output.h"
#include "core/crash_note.h"
#include "core/log.h"
#include "plan/plan_file.h"
#include "report/rounds_summary.h"
#include "report/store.h"
#include "report/trace.h"
#include "runner/resume.h"
#include "runner/interrupt.h"

namespace edgebench {

CLI::Validator NonEmpty() {
  return CLI::Validator([](std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); },
                        "NONEMPTY");
}

CLI::Validator FinitePositiveNumber() {
  return CLI::Validator(
      [](std::string& value) {
        double number = 0;
        // CLI11's PositiveNumber lets nan through (nan <= 0 is false), and the value was dropped.
        if (!CLI::detail::lexical_cast(value, number) || !std::isfinite(number) || !(number > 0)) {
          return "'" + value + "' is not a finite number above 0";
        }
        return std::string();
      },
      "POSITIVE");
}

std::vector<std::string> WorkerLogArgs() {
  if (LogEnabled(LogLevel::kDebug)) return {"--verbose"};
  return {};
}

void AddResumeOptions(CLI::App* cmd, ResumeFlags& flags) {
  CLI::Option* resume = cmd->add_flag(
      "--resume", flags.resume, "skip the cases that already have a record in the store (--out): a command killed "
                                "mid-way, run again so, runs only the rest");
  cmd->add_flag("--retry-failed", flags.retry_failed,
                "with --resume: run again the cases whose every record crashed or timed out (the store keeps "
                "every attempt)")
      ->needs(resume);
}

Result<std::set<std::string>> ResumedCaseKeys(const ResumeFlags& flags, const std::string& out_dir,
                                              const std::string& command) {
  if (!flags.resume) return std::set<std::string>();
  if (out_dir.empty()) return Status::Error("--resume needs --out DIR: the store whose records it skips");
  const std::string store_path = (std::filesystem::path(out_dir) / "results.jsonl").string();
  if (!std::filesystem::exists(store_path)) return std::set<std::string>();
  auto stored = ReadStore(store_path);
  if (!stored.ok()) return stored.status();
  for (const std::string& w : stored.value().warnings) std::cerr << "edgebench " << command << ": warning: " << w << "\n";
  return CaseKeysToSkip(stored.value().records, flags.retry_failed);
}

void AddMeasuredPhaseOptions(CLI::App* cmd, RunSettings& settings) {
  cmd->add_option("--min-queries", settings.min_queries, "measured queries at least")->capture_default_str();
  cmd->add_option("--min-duration", settings.min_duration_ms, "measured phase lasts at least this many ms")
      ->capture_default_str();
  cmd->add_option("--max-duration", settings.max_duration_ms, "measured phase stops after this many ms")
      ->capture_default_str();
  cmd->add_option("--seed", settings.seed, "seed of the generated inputs")->capture_default_str();
}

void AddProfileOption(CLI::App* cmd, bool& profile) {
  cmd->add_flag("--profile", profile,
                "record per-operator times from the runtime's own profiler over the measured runs (its cost is in "
                "the latencies, so a profiled case is a case of its own); top operators in the table, all in "
                "the record, operators on the --trace timeline (docs/trace.md)");
}

void AddStoreOptions(CLI::App* cmd, std::string& out_dir) {
  out_dir = kDefaultStoreDir;
  CLI::Option* out = cmd->add_option("-o,--out", out_dir, "append records to DIR/results.jsonl")
                         ->check(NonEmpty())
                         ->capture_default_str();
  cmd->add_flag_callback(
         "--no-store", [&out_dir] { out_dir.clear(); },
         "keep no record: print the table only (report, compare and export will not see this run)")
      ->excludes(out);
}

void AddTraceOption(CLI::App* cmd, std::string& path) {
  cmd->add_option("--trace", path,
                  "write a Chrome/Perfetto trace of the cases (queries, phases, device series) to FILE.json; "
                  "open it in ui.perfetto.dev (docs/trace.md)")
      ->check(NonEmpty())
      ->check(CLI::Validator(
          [](std::string& value) {
            const std::filesystem::path parent = std::filesystem::path(value).parent_path();
            std::error_code ec;
            return parent.empty() || std::filesystem::is_directory(parent, ec)
                       ? std::string()
                       : "the directory '" + parent.string() + "' does not exist";
          },
          "FILE"));
}

Result<PlanRunOutcome> RunPlanWithOutput(const std::vector<PlannedCase>& plan, CommandContext& context,
                                         const PlanRunRequest& request, bool keep_records) {
  auto printer = MakePrinter(request.format, std::cout, context.table);
  if (!printer.ok()) return Status::Error(printer.error());
  auto output = RecordOutput::Open(printer.take(), request.out_dir);
  if (!output.ok()) {
    // The default store is relative to where the command runs: say how to put it elsewhere.
    const bool default_store = request.out_dir == kDefaultStoreDir;
    return Status::Error(output.error() + (default_store ? " (the default store, " + std::string(kDefaultStoreDir) +
                                                               "/ here: --out DIR puts it elsewhere, --no-store keeps "
                                                               "none)"
                                                         : ""));
  }
  InstallInterruptHandlers();
  RunPlanOptions options;
  options.executable = context.executable;
  options.worker_args = WorkerLogArgs();
  options.in_process = request.in_process;
  options.done_keys = request.done_keys;
  options.cooldown = request.cooldown;
  options.sysfs_root = request.sysfs_root;
  output.value().Begin();
  // A resumed plan's table shows the whole plan: the stored record of each case it skips
  // (printed, not stored again), then this run's. JSON and CSV print this run's records only.
  if (!request.done_keys.empty() && !request.out_dir.empty() &&
      (request.format == "table" || request.format == "markdown")) {
    const std::string store_path = (std::filesystem::path(request.out_dir) / "results.jsonl").string();
    if (auto stored = ReadStore(store_path); stored.ok()) {
      std::set<std::string> shown;
      for (const Record& r : stored.value().records) {
        const std::string key = RoundKey(r.case_key, r.round ? r.round->round : 0);
        if (request.done_keys.count(key) && shown.insert(key).second) output.value().PrintOnly(r);
      }
    }
  }
  PlanRunOutcome outcome;
  const bool rounds = std::any_of(plan.begin(), plan.end(), [](const PlannedCase& c) { return c.round.has_value(); });
  const bool keep = keep_records || rounds || !request.trace_path.empty();
  outcome.totals = RunPlan(plan, context.registry, options, [&](const Record& r) {
    if (keep) outcome.records.push_back(r);
    return output.value().Emit(r, request.command);
  });
  output.value().End();
  // Across rounds: each case's median and interval, and the targets ranked (docs/rounds.md).
  if (rounds && (request.format == "table" || request.format == "markdown")) {
    std::cout << "\n" << FormatRoundsSummary(SummarizeRounds(outcome.records));
  }
  if (!request.trace_path.empty()) {
    if (Status written = WriteTrace(outcome.records, request.trace_path); !written.ok()) {
      std::cerr << "edgebench " << request.command << ": " << written.message() << " (the records are not affected)\n";
      outcome.trace_failed = true;
    } else {
      std::cerr << "edgebench " << request.command << ": trace of " << outcome.records.size() << " cases written to "
                << request.trace_path << " (open it in ui.perfetto.dev)\n";
    }
  }
  return outcome;
}

void AddPlanOutOption(CLI::App* cmd, std::string& path) {
  cmd->add_option("--plan-out", path, "")->check(NonEmpty())->group("");
}

int RunPlanAndReport(const std::vector<PlannedCase>& plan, CommandContext& context,
                     const PlanRunRequest& request) {
  if (!request.plan_out.empty()) {
    if (Status written = WritePlanFile(plan, request.plan_out); !written.ok()) {
      std::cerr << "edgebench " << request.command << ": " << written.message() << "\n";
      return 2;
    }
    return 0;
  }
  if (request.in_process) {
    for (const PlannedCase& c : plan) {
      if (c.spec.monitor.leak_sites) {
        std::cerr << "edgebench " << request.command
                  << ": --leak-sites runs each case's worker under heaptrack; leave --in-process out\n";
        return 2;
      }
    }
  }
  auto outcome = RunPlanWithOutput(plan, context, request);
  if (!outcome.ok()) {
    std::cerr << "edgebench " << request.command << ": " << outcome.error() << "\n";
    return 2;
  }
  const int code = PlanExitCode(outcome.value().totals, request.command, request.fail_on_invalid, request.out_dir);
  return code == 0 && outcome.value().trace_failed ? 1 : code;
}

namespace {

std::vector<std::string>& TypedCommandLine() {
  static std::vector<std::string> words;
  return words;
}

// A word as a POSIX shell reads it back: quoted when it holds anything but safe characters.
std::string ShellWord(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                            "0123456789_-./=:,+@%") == std::string::npos;
  if (safe) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

void SetCommandLine(int argc, char** argv) {
  TypedCommandLine().assign(argv, argv + argc);
  if (!TypedCommandLine().empty()) TypedCommandLine()[0] = "edgebench";
}

std::string ResumeCommandLine() {
  std::string line;
  bool resumed = false;
  for (const std::string& word : TypedCommandLine()) {
    resumed = resumed || word == "--resume";
    line += (line.empty() ? "" : " ") + ShellWord(word);
  }
  return resumed ? line : line + " --resume";
}

int PlanExitCode(const RunPlanTotals& totals, const std::string& command, bool fail_on_invalid,
                 const std::string& out_dir) {
  if (totals.interrupted_by != 0) {
    const bool resumable = command == "suite" || command == "accuracy" || command == "agree" || command == "drift";
    const int done = totals.measured + totals.not_measured + totals.skipped;
    std::cerr << "edgebench " << command << ": interrupted by " << SignalText(totals.interrupted_by) << " after "
              << done << " of " << totals.cases << " cases; ";
    if (out_dir.empty()) {
      std::cerr << "nothing is kept but the rows above (no store: --out DIR keeps every record)\n";
    } else {
      std::cerr << "every record so far is in " << (std::filesystem::path(out_dir) / "results.jsonl").string();
      if (resumable) std::cerr << "; to run the other " << totals.cases - done << ": " << ResumeCommandLine();
      std::cerr << "\n";
    }
    return 128 + totals.interrupted_by;
  }
  int code = 0;
  if (totals.store_errors > 0) code = 1;
  if (totals.not_measured > 0) code = 1;
  if (fail_on_invalid && totals.invalid > 0) {
    std::cerr << "edgebench " << command << ": " << totals.invalid << " of " << totals.measured
              << " measured cases are INVALID (--fail-on-invalid)\n";
    code = 1;
  }
  if (totals.measured == 0 && totals.resumed == 0) {
    std::cerr << "edgebench " << command << ": nothing was measured ("
              << (totals.cases == 0 ? std::string("the plan has no case")
                                    : std::to_string(totals.skipped) + " of " + std::to_string(totals.cases) +
                                          " cases skipped, " + std::to_string(totals.not_measured) + " failed")
              << ")\n";
    code = 1;
  }
  return code;
}

}  // namespace edgebench
