// `edgebench recommend STORE... --objective p99,energy,accuracy --constraint 'p99<=10ms'`: the
// Pareto front of the measured configurations and the winner under a rule printed with it
// (report/pareto.h, docs/recommend.md).
#include <iostream>
#include <memory>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/read_store_arguments.h"
#include "report/pareto.h"

namespace edgebench {
namespace {

struct RecommendOptions {
  std::vector<std::string> stores;
  std::string objectives = "p99";
  std::vector<std::string> constraints;  // each may hold several, comma-separated
  std::string scenario;
  std::string model;
  double tie_percent = 1;
  std::string format = "table";
};

int RunRecommend(const RecommendOptions& o) {
  if (o.format != "table" && o.format != "json") {
    std::cerr << "edgebench recommend: unknown --format '" << o.format << "'; use table or json\n";
    return 2;
  }
  RecommendQuery query;
  auto objectives = ParseObjectives(o.objectives);
  if (!objectives.ok()) {
    std::cerr << "edgebench recommend: " << objectives.error() << "\n";
    return 2;
  }
  query.objectives = objectives.take();
  for (const std::string& list : o.constraints) {
    auto constraints = ParseConstraints(list);
    if (!constraints.ok()) {
      std::cerr << "edgebench recommend: " << constraints.error() << "\n";
      return 2;
    }
    for (Constraint& c : constraints.value()) query.constraints.push_back(std::move(c));
  }
  if (!(o.tie_percent >= 0 && o.tie_percent < 100)) {  // nan too
    std::cerr << "edgebench recommend: --tie " << o.tie_percent << " is not a percentage from 0 to 100\n";
    return 2;
  }
  query.tie_tolerance = o.tie_percent / 100;
  query.scenario = o.scenario;
  query.model = o.model;
  auto records = ReadStoreArguments(o.stores, "recommend");
  if (!records.ok()) {
    std::cerr << "edgebench recommend: " << records.error() << "\n";
    return 2;
  }
  auto recommendation = Recommend(records.value(), query);
  if (!recommendation.ok()) {
    std::cerr << "edgebench recommend: " << recommendation.error() << "\n";
    return 2;
  }
  if (o.format == "json") {
    std::cout << RecommendationToJson(recommendation.value()).dump(2) << "\n";
  } else {
    std::cout << RecommendationText(recommendation.value());
  }
  return recommendation.value().winner ? 0 : 1;
}

}  // namespace

void AddRecommendCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<RecommendOptions>();
  CLI::App* cmd = app.add_subcommand(
      "recommend", "the Pareto front of measured configurations and the winner under your objectives and constraints");
  cmd->footer(
      "Configurations are the ok, VALID records of one scenario (accuracy records joined to the "
      "single-stream record they name); --constraint filters them, the Pareto front is over "
      "--objective, and the winner is picked from the front by the rule printed with the answer "
      "(docs/recommend.md).\n"
      "Objectives: p50, p90, p99, mean, energy, power, memory, accuracy, throughput, ttft, tpot, "
      "tokens, or a numeric column of docs/query.md.\n"
      "Exit status: 0 with a winner, 1 when no configuration meets the constraints, 2 for bad "
      "arguments or a store that cannot be read.");
  cmd->add_option("stores", o->stores, "STORE...: directories holding results.jsonl, or .jsonl files")->required();
  cmd->add_option("--objective", o->objectives, "metrics to optimise, most important first (comma-separated)")
      ->capture_default_str();
  cmd->add_option("--constraint", o->constraints,
                  "METRIC OP VALUE[UNIT], comma-separated or repeated: e.g. 'p99<=10ms,accuracy>=0.90'");
  cmd->add_option("--model", o->model,
                  "the model whose configurations are compared (needed when the store holds several)");
  cmd->add_option("--scenario", o->scenario,
                  "the scenario compared, e.g. multi-stream or server:200 (default single-stream; llm when "
                  "every objective is an LLM metric)");
  cmd->add_option("--tie", o->tie_percent, "values within this percentage count as tied in the rule")
      ->capture_default_str();
  cmd->add_option("-f,--format", o->format, "table or json")->capture_default_str();
  cmd->callback([o, &context] { context.exit_code = RunRecommend(*o); });
}

}  // namespace edgebench
