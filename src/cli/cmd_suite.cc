// `edgebench suite FILE [--resume]`: runs a declared plan (plan/suite_file.h), each case in its
// worker, appending every record to the store as it completes. --resume skips the cases whose
// case key the store already holds, so a suite killed mid-way ends, once resumed, with exactly
// one record per case.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/command_support.h"
#include "cli/monitor_options.h"
#include "cli/round_options.h"
#include "cli/commands.h"
#include "cli/conformance_command.h"
#include "runner/suite_modes.h"
#include "cli/mix_command.h"
#include "cli/record_output.h"
#include "inputs/input_source.h"
#include "report/store.h"
#include "plan/plan.h"
#include "runner/resume.h"
#include "runner/run_plan.h"
#include "plan/run_request_check.h"
#include "plan/suite_file.h"
#include "load/case_kind.h"

namespace edgebench {
namespace {

struct SuiteOptions {
  std::string file;
  std::string out_dir;
  ResumeFlags resume;
  bool again = false;  // measure every case again though the store holds some
  bool dry_run = false;
  std::string format = "table";
  bool in_process = false;
  bool fail_on_invalid = false;
  MonitorFlags monitor;
  RoundFlags rounds;
  std::string trace_path;
};

// The mixes whose every workload has a mixed record in the store (a run of them that ended).
std::set<std::string> StoredMixes(const std::string& store_path, const std::vector<MixSpec>& mixes) {
  std::set<std::string> done;
  std::error_code ec;
  if (mixes.empty() || !std::filesystem::exists(store_path, ec)) return done;
  auto records = ReadRecords(store_path);
  if (!records.ok()) return done;
  for (const MixSpec& mix : mixes) {
    bool all = true;
    for (const MixWorkload& w : mix.workloads) {
      all = all && std::any_of(records.value().begin(), records.value().end(), [&](const Record& r) {
              return r.mix && r.mix->mix == mix.name && r.mix->workload == w.name && r.mix->phase == "mixed";
            });
    }
    if (all) done.insert(mix.name);
  }
  return done;
}

int Suite(const SuiteOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench suite: " << message << "\n";
    return 2;
  };
  SuiteReadOptions read_options;
  read_options.known_backends = context.registry.Names();  // names only: opens no plugin
  auto suite = ReadSuiteFile(o.file, read_options);
  if (!suite.ok()) return fail(suite.error());
  const SuiteSpec& s = suite.value();

  PlanRequest request;
  for (const SuiteModel& m : s.models) {
    if (Status v = ValidateInputOptions({m.inputs, s.input_pool, s.settings.seed}); !v.ok()) {
      return fail(o.file + ":" + std::to_string(m.line) + ": " + v.message());
    }
    request.models.push_back({m.spec, m.dims, m.inputs});
  }
  request.targets = s.targets;
  // The modes (accuracy, agree, drift) are planned by their commands below; the rest here.
  request.scenarios.clear();
  for (const std::string& scenario : s.scenarios) {
    if (!IsSuiteMode(scenario)) request.scenarios.push_back(scenario);
  }
  request.settings = s.settings;
  request.find_peak = s.find_peak;
  request.profile = s.profile;
  request.strict_dims = s.strict_dims;
  request.input_pool = s.input_pool;
  // The checks `edgebench run` makes of its flags, made of the suite's settings by the same code.
  const auto suite_key = [](const std::string& key) {
    return key == "scenario" ? std::string("scenarios:") : "settings: " + key;
  };
  if (Status checked = CheckRunRequest(request, s.given_settings, suite_key); !checked.ok()) {
    return fail(o.file + (s.settings_line > 0 ? ":" + std::to_string(s.settings_line) : "") + ": " +
                checked.message());
  }
  request.llm_base = LlmSettings{0, 0, s.llm.repetitions, s.llm.warmup_requests, s.llm.sequences,
                                 s.settings.seed, s.llm.prompt_text};
  request.llm_base.concurrency = s.llm.concurrency;
  request.llm_base.rate = s.llm.rate;
  request.llm_base.slo = s.llm.slo;
  request.prompt_lengths = s.llm.prompt_text.empty() ? s.llm.prompt_tokens : std::vector<int64_t>{1};
  request.gen_lengths = s.llm.gen_tokens;
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());
  request.monitor = monitor.value().settings;
  auto plan = PlanCases(request, context.registry);
  if (!plan.ok()) return fail(plan.error());
  const ModePlanContext mode_context{context.registry, request.monitor, context.executable, WorkerLogArgs()};
  for (const auto& [mode, block] : s.modes) {
    const std::string where = o.file + (block.line > 0 ? ":" + std::to_string(block.line) : "") + ": " + mode + ": ";
    for (const SuiteModel& m : s.models) {
      auto cases = PlanSuiteModeCases(block.options, m.spec, s.targets, mode_context);
      if (!cases.ok()) return fail(where + "model '" + m.spec.name + "': " + cases.error());
      for (PlannedCase& c : cases.value()) plan.value().push_back(std::move(c));
    }
  }
  if (Status fits = CheckCaseCount(static_cast<double>(plan.value().size()), "the suite"); !fits.ok()) {
    return fail(fits.message());
  }
  const size_t cases_per_round = plan.value().size();
  auto rounds = ApplyRoundFlags(plan.value(), o.rounds);
  if (!rounds.ok()) return fail(rounds.error());
  plan.value() = rounds.take();

  const std::string out_dir =
      !o.out_dir.empty() ? o.out_dir : !s.out_dir.empty() ? s.out_dir : "results/" + s.name;
  const std::string store_path = (std::filesystem::path(out_dir) / "results.jsonl").string();
  auto done_keys = ResumedCaseKeys(o.resume, out_dir, "suite");  // cases the store already holds
  if (!done_keys.ok()) return fail(done_keys.error());
  auto done = [&](const PlannedCase& c) {
    return done_keys.value().count(RoundKey(c.spec.case_key, c.round ? c.round->round : 0)) > 0;
  };
  int to_run = 0;
  for (const PlannedCase& c : plan.value()) to_run += done(c) ? 0 : 1;
  const std::set<std::string> stored_mixes = StoredMixes(store_path, s.mixes);
  if (!o.resume.resume && !o.again && !o.dry_run && !stored_mixes.empty()) {
    return fail(s.name + ": " + store_path + " already holds a run of mix '" + *stored_mixes.begin() +
                "'; --resume runs the mixes it does not hold, --again runs every mix again");
  }
  auto mix_done = [&](const MixSpec& mix) { return (o.resume.resume || o.dry_run) && stored_mixes.count(mix.name) > 0; };
  if (!o.resume.resume && !o.again && !o.dry_run) {
    // Run again as it was: the store already holds cases of this plan. Measuring them again
    // appends a second record of each, which a user rarely means.
    ResumeFlags asked;
    asked.resume = true;
    auto stored = ResumedCaseKeys(asked, out_dir, "suite");
    if (!stored.ok()) return fail(stored.error());
    int held = 0;
    for (const PlannedCase& c : plan.value()) {
      held += stored.value().count(RoundKey(c.spec.case_key, c.round ? c.round->round : 0)) > 0 ? 1 : 0;
    }
    if (held > 0) {
      return fail(s.name + ": " + store_path + " already holds " + std::to_string(held) + " of the " +
                  std::to_string(plan.value().size()) + " cases of this plan; --resume runs the other " +
                  std::to_string(plan.value().size() - held) + ", --again measures all " +
                  std::to_string(plan.value().size()) + " again (a second record of each is appended)");
    }
  }
  std::cerr << "edgebench suite: " << s.name << ": " << plan.value().size() << " cases ("
            << s.models.size() << " models x " << s.targets.size() << " targets x " << s.scenarios.size()
            << " scenarios" << (std::any_of(s.scenarios.begin(), s.scenarios.end(),
                                         [](const std::string& n) { return CaseKindOf(n) == CaseKind::kLanguageModel; })
                                    ? " x llm lengths" : "")
            << ")" << (o.rounds.rounds > 1 ? " x " + std::to_string(o.rounds.rounds) + " rounds (" +
                                             std::to_string(cases_per_round) + " a round)"
                                       : "")
            << (o.resume.resume ? ", " + std::to_string(plan.value().size() - to_run) + " already in " + store_path : "")
            << ", " << to_run << " to run"
            << (s.mixes.empty() ? "" : ", then " + std::to_string(s.mixes.size()) + " mix(es)")
            << (s.conformance ? ", then ONNX's node tests on " + std::to_string(s.targets.size()) + " targets" : "")
            << "; records go to " << store_path << "\n";
  if (o.dry_run) {
    for (const PlannedCase& c : plan.value()) {
      std::cout << c.spec.case_key << "  " << c.spec.model << "  " << c.spec.TargetText() << "  " << c.spec.scenario
                << (CaseKindOf(c.spec.scenario) == CaseKind::kLanguageModel ? " prompt " + std::to_string(c.spec.llm.prompt_tokens) + " gen " +
                                                   std::to_string(c.spec.llm.gen_tokens)
                                             : "")
                << (c.round ? "  round " + std::to_string(c.round->round) : "")
                << (done(c) ? "  (in the store)" : "")
                << (c.skip_reason.empty() ? "" : "  (skipped: " + c.skip_reason + ")") << "\n";
    }
    if (s.conformance) {
      std::cout << "conformance  " << (s.conformance->ops.empty() ? "every case" : s.conformance->ops) << "  on "
                << s.targets.size() << " targets  (cases already in " << out_dir << "/conformance.jsonl are kept)\n";
    }
    for (const MixSpec& mix : s.mixes) {
      std::cout << "mix " << mix.name << "  " << mix.path << "  " << mix.workloads.size() << " workloads, "
                << mix.duration_ms / 1000.0 << " s a phase" << (mix_done(mix) ? "  (in the store)" : "") << "\n";
    }
    return 0;
  }
  int exit_code = 0;
  if (!plan.value().empty() || (s.mixes.empty() && !s.conformance)) {
    exit_code = RunPlanAndReport(plan.value(), context, {"suite", o.format, out_dir, o.in_process, done_keys.value(),
                                                         o.fail_on_invalid, monitor.value().cooldown,
                                                         request.monitor.sysfs_root, o.trace_path, ""});
  }
  // Each mix after the cases, into the same store (docs/mixes.md); 1 when one was not met.
  for (const MixSpec& mix : s.mixes) {
    if (mix_done(mix)) {
      std::cerr << "edgebench suite: mix " << mix.name << " is in the store already\n";
      continue;
    }
    const int mixed = RunMixCommand({mix.path, o.format, out_dir, o.monitor.no_monitor}, context);
    exit_code = std::max(exit_code, mixed == 2 ? 1 : mixed);
  }
  // ONNX's node tests on the suite's targets, into the same store (docs/conformance.md). The
  // command goes on where the store's cells stop, so --resume and a plain run mean the same.
  if (s.conformance) {
    ConformanceCommandOptions conformance;
    conformance.cases_dir = s.conformance->cases;
    conformance.ops = s.conformance->ops;
    conformance.timeout_ms = s.conformance->timeout_ms;
    for (const Target& target : s.targets) {
      conformance.targets += (conformance.targets.empty() ? "" : ",") + target.Canonical();
    }
    conformance.format = o.format == "markdown" || o.format == "json" || o.format == "jsonl" ? o.format : "table";
    conformance.out_dir = out_dir;
    const int ran = RunConformanceCommand(conformance, context);
    if (ran == 2) {
      std::cerr << "edgebench suite: " << o.file << ":" << s.conformance->line << ": conformance: see above\n";
    }
    exit_code = std::max(exit_code, ran == 2 ? 1 : ran);
  }
  return exit_code;
}

}  // namespace

void AddSuiteCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<SuiteOptions>();
  CLI::App* cmd = app.add_subcommand(
      "suite", "run a suite file: models x targets x scenarios x parameter lists, resumable");
  cmd->footer(
      "The suite file's format is in docs/suites.md; every mistake in it is reported with its line "
      "before anything runs. Each case has a key (a hash of its model's bytes, target, scenario and "
      "settings) stored in its record; --resume skips cases whose key the store already holds, and "
      "with --retry-failed runs again those whose every attempt crashed or timed out. A suite's mix files "
      "(mixes:, docs/mixes.md) run after its cases, into its store.\n"
      "Exit status: 0 when every case to run measured (or was skipped for want of an artifact), 1 "
      "when any did not or nothing was measured, 2 for a bad suite file or arguments.");
  cmd->add_option("file", o->file, "the suite file (YAML)")->required();
  cmd->add_option("-o,--out", o->out_dir, "store directory (default: the suite's `out`, else results/NAME)")
      ->check(NonEmpty());
  AddResumeOptions(cmd, o->resume);
  cmd->add_flag("--again", o->again,
                "measure every case again though the store already holds some (without it, a suite whose store "
                "holds cases of its plan is refused: --resume runs the rest)")
      ->excludes("--resume");
  cmd->add_flag("--dry-run", o->dry_run, "list the cases with their keys and stop");
  cmd->add_option("-f,--format", o->format, "table, markdown, csv, json or jsonl")->capture_default_str();
  cmd->add_flag("--in-process", o->in_process, "run cases in this process (debugging; a crash ends the run)");
  cmd->add_flag("--fail-on-invalid", o->fail_on_invalid, "exit 1 when a measured case is INVALID (for CI)");
  AddMonitorOptions(cmd, o->monitor);
  AddRoundOptions(cmd, o->rounds);
  AddTraceOption(cmd, o->trace_path);
  cmd->callback([o, &context] { context.exit_code = Suite(*o, context); });
}

}  // namespace edgebench
