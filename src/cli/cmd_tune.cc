// `edgebench tune MODEL --space 'target=...;threads=...;batch=...' --objective p99 --constraint
// 'p99<=20ms'`: the best configuration of a space under a bound, found by a race
// (tune/race.h) in a fraction of the exhaustive sweep's time. Every round of every
// configuration is an ordinary case and record in the store, tagged with its race, so a race
// killed mid-way continues with --resume and `edgebench report` shows it (docs/tune.md).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "core/strings.h"
#include "report/store.h"
#include "runner/interrupt.h"
#include "plan/plan.h"
#include "plan/race_plan.h"
#include "runner/run_plan.h"
#include "tune/race_records.h"
#include "tune/race_text.h"
#include "tune/race_json.h"

namespace edgebench {
namespace {

// The command's own flags beside the options that decide what races (plan/race_plan.h).
struct TuneOptions {
  RacePlanOptions plan;
  std::string out_dir;
  bool resume = false;
  std::string format = "table";
};


int Tune(const TuneOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench tune: " << message << "\n";
    return 2;
  };
  if (o.format != "table" && o.format != "json") return fail("unknown --format '" + o.format + "'; use table or json");
  auto planned = PlanRace(o.plan, context.registry);
  if (!planned.ok()) return fail(planned.error());
  const RaceSettings& settings = planned.value().settings;
  const RaceDescription& race = planned.value().race;
  const std::vector<CaseSpec>& specs = planned.value().specs;
  if (race.entrants.empty()) {
    std::cerr << "edgebench tune: every configuration was pruned before running:\n";
    for (const PrunedConfiguration& p : race.pruned) std::cerr << "  " << p.label << ": " << p.reason << "\n";
    return 1;
  }

  const std::string out_dir = !o.out_dir.empty() ? o.out_dir : "results/tune-" + race.model;
  const std::string store_path = (std::filesystem::path(out_dir) / "results.jsonl").string();
  std::map<std::string, Record> stored;  // case key -> record of this race
  if (std::filesystem::exists(store_path)) {
    auto contents = ReadStore(store_path);
    if (!contents.ok()) return fail(contents.error());
    for (const std::string& w : contents.value().warnings) std::cerr << "edgebench tune: warning: " << w << "\n";
    for (Record& r : contents.value().records) {
      if (r.tune && r.tune->race == race.id) stored[r.case_key] = std::move(r);
    }
    if (!stored.empty() && !o.resume) {
      return fail(store_path + " already holds " + std::to_string(stored.size()) + " records of this race (" + race.id +
                  "); --resume continues it, or give another --out");
    }
  }
  auto store = ResultStore::Open(out_dir);
  if (!store.ok()) return fail(store.error());

  std::cerr << "edgebench tune: " << race.model << ": " << race.entrants.size() << " configurations to race"
            << (race.pruned.empty() ? "" : ", " + std::to_string(race.pruned.size()) + " pruned before running") << "; "
            << (settings.exhaustive ? "exhaustive sweep of " : "round 0 measures ") << settings.initial_queries
            << " queries each; race " << race.id << ", records go to " << store_path << "\n";
  for (const PrunedConfiguration& p : race.pruned) {
    std::cerr << "edgebench tune: pruned " << p.label << ": " << p.reason << "\n";
  }

  InstallInterruptHandlers();
  int interrupted_by = 0;
  int store_errors = 0;
  RaceMeasure measure = [&](const std::vector<size_t>& entrants, int round,
                            int64_t queries) -> std::optional<std::vector<RaceObservation>> {
    std::vector<CaseSpec> round_specs;
    std::vector<PlannedCase> to_run;
    for (size_t e : entrants) {
      CaseSpec spec = specs[e];
      spec.settings.min_queries = queries;
      spec.settings.max_queries = queries;
      spec.tune = RaceTag(race, e, round, queries);
      if (Status settled = SettleCase(spec); !settled.ok()) {
        std::cerr << "edgebench tune: " << spec.TargetText() << ": " << settled.message() << "\n";
        return std::nullopt;
      }
      if (!stored.count(spec.case_key)) to_run.push_back({spec, "", false, nullptr, std::nullopt});
      round_specs.push_back(std::move(spec));
    }
    std::cerr << "edgebench tune: round " << round << ": " << entrants.size() << " configuration"
              << (entrants.size() == 1 ? "" : "s") << " x " << queries << " queries"
              << (to_run.size() < entrants.size() ? " (" + std::to_string(entrants.size() - to_run.size()) + " already in the store)" : "")
              << "\n";
    if (!to_run.empty()) {
      RunPlanOptions options;
      options.executable = context.executable;
      options.worker_args = WorkerLogArgs();
      RunPlanTotals totals = RunPlan(to_run, context.registry, options, [&](const Record& r) {
        Status appended = store.value().Append(r);
        if (!appended.ok()) {
          ++store_errors;
          std::cerr << "edgebench tune: could not store a record: " << appended.message() << "\n";
        }
        stored[r.case_key] = r;
        return appended.ok();
      });
      if (totals.interrupted_by != 0) {
        interrupted_by = totals.interrupted_by;
        return std::nullopt;
      }
    }
    std::vector<RaceObservation> observations;
    for (const CaseSpec& spec : round_specs) {
      auto it = stored.find(spec.case_key);
      if (it == stored.end()) return std::nullopt;
      observations.push_back(ObservationFromRecord(it->second, settings));
    }
    return observations;
  };
  auto result = RunRace(settings, race.entrants, measure);
  if (!result.ok()) return fail(result.error());
  if (o.format == "json") {
    std::cout << RaceAnswerJson(race, result.value()).dump(2) << "\n";
  } else {
    std::cout << RaceText(race, result.value());
    std::cout << "records: " << store_path << " (race " << race.id << "); `edgebench report " << out_dir
              << "` shows the race\n";
  }
  if (interrupted_by != 0) {
    std::cerr << "edgebench tune: interrupted; every record so far is stored; the same command with --resume continues the race\n";
    return 128 + interrupted_by;
  }
  if (store_errors > 0) return 1;
  return result.value().winner ? 0 : 1;
}

}  // namespace

void AddTuneCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<TuneOptions>();
  CLI::App* cmd = app.add_subcommand(
      "tune", "race the configurations of a space and keep the best under your objective and constraints");
  cmd->footer(
      "Every configuration gets a short measurement; one whose confidence interval is wholly worse than the best's, "
      "or wholly past a constraint, is dropped; the rest get twice the queries, round after round, until one is left, "
      "the rest tie within --tie, or --rounds or --budget run out; the last one left is measured on to --precision "
      "(docs/tune.md).\n"
      "Exit status: 0 with a winner, 1 when no configuration meets the constraints or none could be measured, "
      "2 for bad arguments, 128 + the signal when interrupted (--resume continues).");
  cmd->add_option("model", o->plan.model_path, "model: FILE, NAME=FILE1,FILE2 or a manifest .json, as `run` takes it")
      ->required();
  cmd->add_option("--space", o->plan.space,
                  "lists whose product is the space: 'target=ort:cpu,ort:xnnpack;threads=1,2,4;batch=1,4' "
                  "(batch binds every input's first axis; other keys are target options)")
      ->required();
  cmd->add_option("--objective", o->plan.objective, "p50, p90, p99, mean, throughput, energy, ...")->capture_default_str();
  cmd->add_option("--constraint", o->plan.constraints, "METRIC OP VALUE[UNIT], e.g. 'p99<=20ms' (comma-separated or repeated)");
  cmd->add_option("--scenario", o->plan.scenario, "single-stream or multi-stream:N")->capture_default_str();
  cmd->add_option("--confidence", o->plan.confidence,
                  "probability that no interval the race reads misleads it, so the true best is kept")
      ->capture_default_str();
  cmd->add_option("--queries", o->plan.queries,
                  "round 0's queries per configuration (default: enough for the objective's interval; p99 needs hundreds)");
  cmd->add_option("--rounds", o->plan.rounds, "rounds at most; round r measures 2^r x round 0's queries")->capture_default_str();
  cmd->add_option("--budget", o->plan.budget, "case time the race may spend, e.g. 10m (a round that would pass it is not started)");
  cmd->add_option("--precision", o->plan.precision_percent,
                  "the last configuration left is measured on until its interval is within this percentage of its "
                  "estimate (0: stop as soon as one is left)")
      ->capture_default_str();
  cmd->add_option("--tie", o->plan.tie_percent, "survivors whose intervals all lie within this percentage tie")
      ->capture_default_str();
  cmd->add_option("--warmup", o->plan.warmup, "warmup queries of every case")->capture_default_str();
  cmd->add_option("--seed", o->plan.seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--name", o->plan.model_name, "model name in results (default: file stem)");
  cmd->add_option("--dim", o->plan.dims, "bind a symbolic dimension: NAME=VALUE (repeatable), as `run`");
  cmd->add_option("-o,--out", o->out_dir, "store directory (default results/tune-MODEL)")->check(NonEmpty());
  cmd->add_flag("--resume", o->resume, "continue this race from the records the store already holds");
  cmd->add_flag("--exhaustive", o->plan.exhaustive,
                "measure every configuration once with --queries, dropping none: the sweep a race is checked against");
  cmd->add_option("-f,--format", o->format, "table or json")->capture_default_str();
  cmd->callback([o, &context] { context.exit_code = Tune(*o, context); });
}

}  // namespace edgebench
