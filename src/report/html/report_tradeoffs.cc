#include "report/html/report_tradeoffs.h"

#include <set>

#include "report/pareto.h"
#include "load/case_kind.h"

namespace edgebench {
namespace {

using Json = nlohmann::json;

std::string AxisLabel(const Objective& objective) {
  const std::string unit = FlatUnitName(objective.unit);
  return objective.column + (unit.empty() ? "" : " (" + unit + ")") +
         (objective.direction == Direction::kLower ? ", lower is better" : ", higher is better");
}

Result<RecommendQuery> QueryFor(const TradeoffsQuery& query, bool has_accuracy) {
  const std::string objectives =
      !query.objectives.empty() ? query.objectives : has_accuracy ? "p99,accuracy" : "p99,peak_rss_mib";
  auto parsed = ParseObjectives(objectives);
  if (!parsed.ok()) return parsed.status();
  if (parsed.value().size() < 2) {
    return Status::Error("the report's trade-offs scatter needs two objectives or more (its axes); "
                         "got '" + objectives + "'");
  }
  RecommendQuery out;
  out.objectives = parsed.take();
  for (const std::string& text : query.constraints) {
    auto constraints = ParseConstraints(text);
    if (!constraints.ok()) return constraints.status();
    for (Constraint& c : constraints.value()) out.constraints.push_back(std::move(c));
  }
  return out;
}

}  // namespace

Status CheckTradeoffsQuery(const TradeoffsQuery& query) {
  auto parsed = QueryFor(query, false);
  return parsed.ok() ? Status::Ok() : parsed.status();
}

Json TradeoffsSection(const std::vector<Record>& records, const TradeoffsQuery& query) {
  std::set<std::string> models, with_accuracy;
  for (const Record& r : records) {
    if (r.status != CaseStatus::kOk || CaseKindOf(r.scenario) == CaseKind::kLanguageModel) continue;
    models.insert(r.model);
    if (CaseKindOf(r.scenario) == CaseKind::kAccuracy) with_accuracy.insert(r.model);
  }
  Json charts = Json::array();
  Json notes = Json::array();
  for (const std::string& model : models) {
    auto q = QueryFor(query, with_accuracy.count(model) > 0);
    if (!q.ok()) {
      notes.push_back(model + ": " + q.error());
      continue;
    }
    RecommendQuery rq = q.take();
    rq.model = model;
    auto answer = Recommend(records, rq);
    if (!answer.ok()) {
      notes.push_back(model + ": " + answer.error());
      continue;
    }
    const Recommendation& r = answer.value();
    // The axes: the first two objectives that some configuration has.
    std::vector<size_t> axes;
    for (size_t k = 0; k < rq.objectives.size() && axes.size() < 2; ++k) {
      if (r.objective_active[k]) axes.push_back(k);
    }
    if (axes.size() < 2) {
      notes.push_back(model + ": fewer than two of the objectives were measured (" +
                      (r.notes.empty() ? std::string("no values") : r.notes.front()) + ")");
      continue;
    }
    Json points = Json::array();
    for (size_t i = 0; i < r.configurations.size(); ++i) {
      const Configuration& c = r.configurations[i];
      const auto& x = c.objective_values[axes[0]];
      const auto& y = c.objective_values[axes[1]];
      if (!x || !y) continue;
      points.push_back({{"label", c.label},
                        {"x", *x},
                        {"y", *y},
                        {"on_front", c.on_front},
                        {"winner", r.winner && *r.winner == i},
                        {"eligible", c.eligible},
                        {"failed_constraints", c.failed_constraints}});
    }
    if (points.size() < 2) {
      notes.push_back(model + ": " + std::to_string(points.size()) + " configuration(s) with both " +
                      rq.objectives[axes[0]].column + " and " + rq.objectives[axes[1]].column +
                      ": nothing to trade off");
      continue;
    }
    Json chart = {{"model", model},
                  {"scenario", r.scenario},
                  {"x_label", AxisLabel(rq.objectives[axes[0]])},
                  {"y_label", AxisLabel(rq.objectives[axes[1]])},
                  {"points", points},
                  {"rule", r.rule},
                  {"winner", r.winner ? Json(r.configurations[*r.winner].label) : Json(nullptr)},
                  {"runner_up", r.runner_up ? Json(r.configurations[*r.runner_up].label) : Json(nullptr)},
                  {"runner_up_reason", r.runner_up_reason},
                  {"no_winner_reason", r.no_winner_reason},
                  {"notes", r.notes}};
    Json constraints = Json::array();
    for (const Constraint& c : rq.constraints) constraints.push_back(c.text);
    chart["constraints"] = constraints;
    charts.push_back(std::move(chart));
  }
  if (charts.empty()) {
    return notes.empty() ? Json(nullptr) : Json({{"charts", Json::array()}, {"notes", notes}});
  }
  return {{"charts", charts}, {"notes", notes}};
}

}  // namespace edgebench
