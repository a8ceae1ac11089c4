// `edgebench recommend`: which measured configuration (runtime x device x threads x precision x
// batch) to pick under stated objectives and constraints. A recommendation is a query over
// records, not an opinion: the configurations are the flat rows (metrics/flat_record.h) of ok,
// VALID records, constraints filter them, the Pareto front is the set no other configuration
// beats on one objective without losing on another, and the winner is picked from the front by
// a rule that is printed with the answer (docs/recommend.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "metrics/constraints.h"
#include "metrics/flat_record.h"
#include "record/record.h"

namespace edgebench {

struct RecommendQuery {
  std::vector<Objective> objectives;    // at least one
  std::vector<Constraint> constraints;
  // The scenario whose records are compared (a table name such as "multi-stream" or a scenario
  // as run such as "multi-stream:4"). Empty: "llm" when every objective is an LLM metric,
  // else "single-stream". Accuracy records join the single-stream record they name.
  std::string scenario;
  double tie_tolerance = 0.01;  // relative: values this close count as tied in the rule
  // The model whose configurations are compared: configurations of different models are
  // different products, never rivals. Empty: the records must hold one model.
  std::string model;
};

struct Configuration {
  std::string label;  // model, variant, target (and scenario, host when they vary)
  nlohmann::ordered_json row;          // the flat row, accuracy columns joined in
  std::vector<std::string> record_ids;  // the records it is made of
  std::vector<std::optional<double>> objective_values;  // per objective of the query
  std::vector<std::string> missing;     // objective columns it has no value for
  std::vector<std::string> failed_constraints;  // "p99<=10ms (12.3 ms)"
  bool eligible = false;  // meets every constraint, every active objective measured
  bool on_front = false;
};

struct Recommendation {
  RecommendQuery query;
  std::string scenario;  // the one compared
  std::string rule;      // the winner's rule in words, printed with every answer
  std::vector<bool> objective_active;  // false: dropped (no configuration has that metric)
  std::vector<Configuration> configurations;
  std::vector<size_t> front;          // indexes into configurations, in rule order
  std::optional<size_t> winner;
  std::optional<size_t> runner_up;
  std::string runner_up_reason;       // which objective it lost on, and by how much
  std::string no_winner_reason;       // when there is no winner
  std::vector<std::string> notes;     // dropped objectives, records left out and why
};

// A store with nothing to compare gives a Recommendation without a winner and the reason. Fails
// only on a query that cannot be answered as asked: no objective, or no model named while the
// records to compare hold several (the error lists them).
Result<Recommendation> Recommend(const std::vector<Record>& records, const RecommendQuery& query);

nlohmann::json RecommendationToJson(const Recommendation& recommendation);
// The answer for people: the rule, a table of configurations, the winner, the runner-up and
// why it lost, the configurations that miss a constraint and which.
std::string RecommendationText(const Recommendation& recommendation);

}  // namespace edgebench
