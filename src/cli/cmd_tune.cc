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
#include "core/sha256.h"
#include "core/strings.h"
#include "core/model_ops.h"
#include "load/scenario_registry.h"
#include "load/scenario_spec.h"
#include "report/store.h"
#include "runner/interrupt.h"
#include "plan/plan.h"
#include "plan/resolve_target.h"
#include "runner/run_plan.h"
#include "tune/race_records.h"
#include "tune/race_text.h"
#include "tune/space.h"
#include "tune/race_json.h"

namespace edgebench {
namespace {

struct TuneOptions {
  std::string model_path;
  std::string model_name;
  std::string space;
  std::string objective = "p99";
  std::vector<std::string> constraints;
  std::string scenario = "single-stream";
  double confidence = 0.95;
  int64_t queries = 0;  // round 0's queries per configuration; 0: chosen from the objective
  int rounds = 5;
  double precision_percent = 5;
  std::string budget;  // e.g. "10m"; empty: none
  double tie_percent = 1;
  int64_t warmup = 20;
  uint64_t seed = 0;
  std::vector<std::string> dims;
  std::string out_dir;
  bool resume = false;
  bool exhaustive = false;
  std::string format = "table";
};

// Why a configuration cannot run, found before anything runs; empty when it may.
std::string PruneReason(const TuneConfiguration& c, const PlannedCase& planned, const Registry& registry,
                        std::map<std::string, std::optional<ModelOps>>& model_inputs) {
  if (!planned.skip_reason.empty()) return planned.skip_reason;
  // The same resolution a case makes when it runs, so a pruned configuration is what its case
  // would have recorded as failed or unavailable.
  const TargetResolution resolution = ResolveTarget(c.target, registry, SessionKind::kTensor);
  if (!resolution.resolved) return resolution.error;
  if (c.batch > 0) {
    const std::string& artifact = planned.spec.artifact;
    if (!model_inputs.count(artifact)) {
      auto ops = ReadModelOps(artifact);  // .onnx and .tflite; other formats are tried when run
      model_inputs[artifact] = ops.ok() ? std::optional<ModelOps>(ops.take()) : std::nullopt;
    }
    if (const auto& ops = model_inputs[artifact]) {
      for (const ModelInput& input : ops->inputs) {
        if (!input.shape_known || input.axes.empty() || !input.axes[0] || *input.axes[0] == c.batch) continue;
        return "the model's input '" + input.name + "' has a fixed first axis of " + std::to_string(*input.axes[0]) +
               " in " + std::filesystem::path(artifact).filename().string() + ", so it cannot take batch " +
               std::to_string(c.batch) + " (export it with a dynamic batch axis)";
      }
    }
  }
  return "";
}

int Tune(const TuneOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench tune: " << message << "\n";
    return 2;
  };
  if (o.format != "table" && o.format != "json") return fail("unknown --format '" + o.format + "'; use table or json");
  RaceSettings settings;
  auto objective = ParseRaceMetric(o.objective);
  if (!objective.ok()) return fail("--objective: " + objective.error());
  settings.objective = objective.take();
  for (const std::string& list : o.constraints) {
    auto parsed = ParseConstraints(list);
    if (!parsed.ok()) return fail(parsed.error());
    for (Constraint& c : parsed.value()) {
      auto metric = RaceMetricForConstraint(c);
      if (!metric.ok()) return fail(metric.error());
      settings.constraints.push_back({std::move(c), metric.take()});
    }
  }
  if (!(o.confidence > 0.5 && o.confidence < 1)) return fail("--confidence must lie between 0.5 and 1 (e.g. 0.95)");
  settings.confidence = o.confidence;
  if (o.rounds < 1 || o.rounds > 12) return fail("--rounds must be from 1 to 12 (round r measures 2^r times round 0's queries)");
  settings.max_rounds = o.rounds;
  if (o.tie_percent < 0 || o.tie_percent >= 100) return fail("--tie must be a percentage from 0 to 100");
  settings.tie_tolerance = o.tie_percent / 100;
  if (o.precision_percent < 0 || o.precision_percent >= 100) return fail("--precision must be a percentage from 0 to 100");
  settings.precision = o.precision_percent / 100;
  settings.exhaustive = o.exhaustive;
  if (!o.budget.empty()) {
    auto budget = ParseDurationMs(o.budget);
    if (!budget.ok()) return fail("--budget: " + budget.error());
    if (budget.value() <= 0) return fail("--budget must be longer than 0 (e.g. 10m)");
    settings.budget_ns = budget.value() * 1'000'000;
  }
  constexpr int64_t kMaxQueries = 10'000'000;
  if (o.queries < 0 || o.queries > kMaxQueries) {
    return fail("--queries must be from 1 to " + std::to_string(kMaxQueries) + " (round 0's queries per configuration)");
  }
  if (o.exhaustive && o.queries == 0) {
    return fail("--exhaustive measures every configuration with --queries N: give the race's final query count");
  }
  if (o.warmup < 0) return fail("--warmup must be 0 or more");
  auto scenario = ParseScenario(o.scenario);
  if (!scenario.ok()) return fail("--scenario: " + scenario.error());
  if (scenario.value().family() != "single-stream" && scenario.value().family() != "multi-stream") {
    return fail("--scenario: tune races single-stream or multi-stream:N (their query latencies are the samples "
                "its intervals need); '" + o.scenario + "' is not one of them");
  }
  auto space = ParseSpace(o.space);
  if (!space.ok()) return fail(space.error());
  auto configurations = ExpandSpace(space.value());
  if (!configurations.ok()) return fail(configurations.error());
  auto model = ParseModelArgument(o.model_path);
  if (!model.ok()) return fail(model.error());
  PlanModel plan_model;
  plan_model.model = model.take();
  if (!o.model_name.empty()) plan_model.model.name = o.model_name;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, plan_model.dims); !s.ok()) return fail(s.message());
  }
  const std::vector<std::string> known = context.registry.Names();
  for (const TuneConfiguration& c : configurations.value()) {
    if (std::find(known.begin(), known.end(), c.target.backend) == known.end()) {
      return fail("--space: unknown backend '" + c.target.backend + "' in '" + c.values.at("target") +
                  "'; backends: " + Join(known, ", "));
    }
  }

  // One planned case per configuration; pruning before anything runs.
  RaceDescription race;
  race.model = plan_model.model.name;
  race.scenario = scenario.value().Canonical();
  race.space = o.space;
  std::vector<CaseSpec> specs;
  std::vector<TuneConfiguration> raced;
  std::map<std::string, std::optional<ModelOps>> model_inputs;
  for (const TuneConfiguration& c : configurations.value()) {
    PlanRequest request;
    request.models = {plan_model};
    request.targets = {c.target};
    request.scenarios = {race.scenario};
    request.settings.warmup_queries = o.warmup;
    request.settings.seed = o.seed;
    request.settings.batch = c.batch;
    request.settings.min_duration_ms = 0;
    request.settings.max_duration_ms = 3'600'000;
    auto plan = PlanCases(request, context.registry);
    if (!plan.ok()) return fail(plan.error());
    if (plan.value().size() != 1) return fail("internal: a configuration planned " + std::to_string(plan.value().size()) + " cases");
    const std::string reason = PruneReason(c, plan.value()[0], context.registry, model_inputs);
    if (!reason.empty()) {
      race.pruned.push_back({c.label, reason});
      continue;
    }
    raced.push_back(c);
    specs.push_back(plan.value()[0].spec);
    const double streams = static_cast<double>(scenario.value().streams);
    race.entrants.push_back({c.label, streams * static_cast<double>(std::max<int64_t>(c.batch, 1))});
  }
  if (race.entrants.empty()) {
    std::cerr << "edgebench tune: every configuration was pruned before running:\n";
    for (const PrunedConfiguration& p : race.pruned) std::cerr << "  " << p.label << ": " << p.reason << "\n";
    return 1;
  }
  settings.initial_queries = o.queries > 0 ? o.queries
                                           : DefaultInitialQueries(settings.objective, RaceIntervalAlpha(settings, race.entrants.size()));
  race.settings = settings;
  nlohmann::json identity = {{"model", race.model}, {"scenario", race.scenario}, {"settings", RaceSettingsToJson(settings)},
                             {"warmup", o.warmup}, {"seed", o.seed}, {"dims", plan_model.dims}};
  for (const CaseSpec& spec : specs) identity["cases"].push_back({spec.TargetText(), spec.artifact_sha256, spec.settings.batch});
  race.id = Sha256Hex(identity.dump()).substr(0, 16);

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
  cmd->add_option("model", o->model_path, "model: FILE, NAME=FILE1,FILE2 or a manifest .json, as `run` takes it")
      ->required();
  cmd->add_option("--space", o->space,
                  "lists whose product is the space: 'target=ort:cpu,ort:xnnpack;threads=1,2,4;batch=1,4' "
                  "(batch binds every input's first axis; other keys are target options)")
      ->required();
  cmd->add_option("--objective", o->objective, "p50, p90, p99, mean, throughput, energy, ...")->capture_default_str();
  cmd->add_option("--constraint", o->constraints, "METRIC OP VALUE[UNIT], e.g. 'p99<=20ms' (comma-separated or repeated)");
  cmd->add_option("--scenario", o->scenario, "single-stream or multi-stream:N")->capture_default_str();
  cmd->add_option("--confidence", o->confidence,
                  "probability that no interval the race reads misleads it, so the true best is kept")
      ->capture_default_str();
  cmd->add_option("--queries", o->queries,
                  "round 0's queries per configuration (default: enough for the objective's interval; p99 needs hundreds)");
  cmd->add_option("--rounds", o->rounds, "rounds at most; round r measures 2^r x round 0's queries")->capture_default_str();
  cmd->add_option("--budget", o->budget, "case time the race may spend, e.g. 10m (a round that would pass it is not started)");
  cmd->add_option("--precision", o->precision_percent,
                  "the last configuration left is measured on until its interval is within this percentage of its "
                  "estimate (0: stop as soon as one is left)")
      ->capture_default_str();
  cmd->add_option("--tie", o->tie_percent, "survivors whose intervals all lie within this percentage tie")
      ->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "warmup queries of every case")->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--name", o->model_name, "model name in results (default: file stem)");
  cmd->add_option("--dim", o->dims, "bind a symbolic dimension: NAME=VALUE (repeatable), as `run`");
  cmd->add_option("-o,--out", o->out_dir, "store directory (default results/tune-MODEL)")->check(NonEmpty());
  cmd->add_flag("--resume", o->resume, "continue this race from the records the store already holds");
  cmd->add_flag("--exhaustive", o->exhaustive,
                "measure every configuration once with --queries, dropping none: the sweep a race is checked against");
  cmd->add_option("-f,--format", o->format, "table or json")->capture_default_str();
  cmd->callback([o, &context] { context.exit_code = Tune(*o, context); });
}

}  // namespace edgebench
