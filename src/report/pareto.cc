#include "report/pareto.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/strings.h"
#include "record/emulated_device.h"
#include "report/rounds_summary.h"
#include "load/case_kind.h"

namespace edgebench {
namespace {

using Json = nlohmann::json;

std::string WithUnit(double v, FlatUnit unit) {
  switch (unit) {
    case FlatUnit::kMilliseconds: return FormatMetricNumber(v) + " ms";
    case FlatUnit::kMillijoules: return FormatMetricNumber(v) + " mJ";
    case FlatUnit::kMilliwatts: return FormatMetricNumber(v) + " mW";
    case FlatUnit::kMebibytes: return FormatMetricNumber(v) + " MiB";
    case FlatUnit::kPerSecond: return FormatMetricNumber(v) + "/s";
    case FlatUnit::kNats: return FormatMetricNumber(v) + " nats";
    default: return FormatMetricNumber(v);
  }
}

std::optional<double> NumberIn(const nlohmann::ordered_json& row, const std::string& column) {
  const auto it = row.find(column);
  if (it == row.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// Whether a is better than b on one objective (strictly).
bool Better(Direction d, double a, double b) { return d == Direction::kLower ? a < b : a > b; }

bool Tied(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

// a dominates b: no worse on every active objective and better on one.
bool Dominates(const Configuration& a, const Configuration& b, const std::vector<Objective>& objectives,
               const std::vector<bool>& active) {
  bool better_somewhere = false;
  for (size_t k = 0; k < objectives.size(); ++k) {
    if (!active[k]) continue;
    const double va = *a.objective_values[k], vb = *b.objective_values[k];
    if (Better(objectives[k].direction, vb, va)) return false;
    if (Better(objectives[k].direction, va, vb)) better_somewhere = true;
  }
  return better_somewhere;
}

// The rule: objective by objective in order, keep the configurations within the tolerance of
// the best; what is left after the last is ordered by the first objective, then record id.
std::optional<size_t> PickByRule(std::vector<size_t> candidates, const std::vector<Configuration>& configurations,
                                 const std::vector<Objective>& objectives, const std::vector<bool>& active,
                                 double tolerance) {
  if (candidates.empty()) return std::nullopt;
  for (size_t k = 0; k < objectives.size() && candidates.size() > 1; ++k) {
    if (!active[k]) continue;
    double best = *configurations[candidates[0]].objective_values[k];
    for (size_t c : candidates) {
      const double v = *configurations[c].objective_values[k];
      if (Better(objectives[k].direction, v, best)) best = v;
    }
    std::vector<size_t> kept;
    for (size_t c : candidates) {
      const double v = *configurations[c].objective_values[k];
      if (std::abs(v - best) <= tolerance * std::abs(best)) kept.push_back(c);
    }
    candidates = kept;
  }
  size_t first_active = 0;
  while (!active[first_active]) ++first_active;
  return *std::min_element(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
    const double va = *configurations[a].objective_values[first_active];
    const double vb = *configurations[b].objective_values[first_active];
    if (va != vb) return Better(objectives[first_active].direction, va, vb);
    return configurations[a].record_ids.front() < configurations[b].record_ids.front();
  });
}

std::string ObjectiveText(const Objective& o) {
  return o.column + " (" + (o.direction == Direction::kLower ? "lower" : "higher") + " is better)";
}

std::string RuleText(const RecommendQuery& query, const std::vector<bool>& active) {
  std::ostringstream rule;
  rule << "Configurations are the ok, VALID records of the scenario (accuracy joined to the "
          "single-stream record it names); those missing a constraint or an objective's metric "
          "are out. The Pareto front is the rest that no other beats on one objective without "
          "losing on another. The winner is picked from the front objective by objective in "
          "the order given: ";
  bool first = true;
  for (size_t k = 0; k < query.objectives.size(); ++k) {
    if (!active[k]) continue;
    rule << (first ? "best " : "; then, among those within " + FormatMetricNumber(query.tie_tolerance * 100) +
                                  "% of the best (tied), best ")
         << ObjectiveText(query.objectives[k]);
    first = false;
  }
  rule << "; a tie left after the last objective goes to the best on the first, then the "
          "earliest record id. The runner-up is the same rule's pick among the other "
          "eligible configurations.";
  return rule.str();
}

// Why `loser` lost to `winner`: the first objective where it falls outside the tie band.
std::string LossReason(const Configuration& winner, const Configuration& loser, const RecommendQuery& query,
                       const std::vector<bool>& active) {
  std::string tied;
  for (size_t k = 0; k < query.objectives.size(); ++k) {
    if (!active[k]) continue;
    const Objective& o = query.objectives[k];
    const double w = *winner.objective_values[k], l = *loser.objective_values[k];
    if (Tied(w, l, query.tie_tolerance)) {
      tied += (tied.empty() ? "" : ", ") + o.column;
      continue;
    }
    const double change = w != 0 ? (l - w) / std::abs(w) * 100 : 0;
    std::ostringstream reason;
    reason << (tied.empty() ? "" : "tied on " + tied + " (within " + FormatMetricNumber(query.tie_tolerance * 100) + "%); ")
           << (Better(o.direction, w, l) ? "lost on " : "better on ") << o.column << ": "
           << WithUnit(l, o.unit) << " against the winner's " << WithUnit(w, o.unit);
    reason << " (";
    if (w != 0) reason << (change > 0 ? "+" : "") << FormatMetricNumber(change) << "%, ";
    reason << (o.direction == Direction::kLower ? "lower" : "higher") << " is better)";
    if (!Better(o.direction, w, l)) {
      reason << ", but the winner was already picked on an earlier objective's tie band";
    }
    return reason.str();
  }
  size_t first_active = 0;
  while (!active[first_active]) ++first_active;
  const Objective& o = query.objectives[first_active];
  const double w = *winner.objective_values[first_active], l = *loser.objective_values[first_active];
  if (w != l) {
    return "tied within " + FormatMetricNumber(query.tie_tolerance * 100) + "% on every objective; lost on the exact " +
           o.column + ": " + WithUnit(l, o.unit) + " against " + WithUnit(w, o.unit);
  }
  return "equal on every objective; lost on record order";
}

std::string ConfigurationLabel(const nlohmann::ordered_json& row, bool with_scenario, bool with_host) {
  std::string label = row["model"].get<std::string>();
  const std::string variant = row["variant"].get<std::string>();
  if (!variant.empty()) label += "?variant=" + variant;
  label += " on " + row["target"].get<std::string>();
  if (with_scenario) label += " [" + row["scenario"].get<std::string>() + "]";
  if (with_host) label += " @" + row["host"].get<std::string>();
  return label;
}

bool IsLlmColumn(const std::string& column) {
  const Metric* metric = FindMetric(column);
  return metric && metric->source == MetricSource::kLanguageModel;
}

// The records a recommendation compares: the latest of each configuration (host and case key),
// the accuracy records to join by their latency case key, the rounds of a case measured with
// --rounds, and how many were left out and why.
struct RecordSelection {
  using Key = std::pair<std::string, std::string>;
  std::map<Key, const Record*> latest;
  std::map<Key, const Record*> accuracy_of;  // by latency case key
  std::map<Key, std::vector<const Record*>> rounds_of;  // --rounds
  int not_ok = 0, invalid = 0, superseded = 0, other_scenario = 0, other_model = 0;
};

// Scenario: the query's, else "llm" when every objective is an LLM metric, else single-stream.
std::string ComparedScenario(const RecommendQuery& query) {
  if (!query.scenario.empty()) return query.scenario;
  const bool all_llm = std::all_of(query.objectives.begin(), query.objectives.end(),
                                   [](const Objective& o) { return IsLlmColumn(o.column); });
  return all_llm ? "llm" : "single-stream";
}

RecordSelection SelectRecords(const std::vector<Record>& records, const RecommendQuery& query,
                              const std::string& scenario) {
  const bool by_table = scenario.find(':') == std::string::npos;
  RecordSelection selected;
  auto& [latest, accuracy_of, rounds_of, not_ok, invalid, superseded, other_scenario, other_model] = selected;
  // A store that measured the same case twice (a re-run, two stores merged) counts it once.
  for (const Record& r : records) {
    if (!query.model.empty() && r.model != query.model) {
      ++other_model;
      continue;
    }
    if (r.status != CaseStatus::kOk) {
      ++not_ok;
      continue;
    }
    if (!r.valid) {
      ++invalid;
      continue;
    }
    if (CaseKindOf(r.scenario) == CaseKind::kAccuracy && r.accuracy && !r.accuracy->latency_case_key.empty() && scenario != ModeScenarioName(CaseKind::kAccuracy)) {
      const auto key = std::make_pair(HostName(r.environment), r.accuracy->latency_case_key);
      const Record*& slot = accuracy_of[key];
      if (slot) ++superseded;
      if (!slot || slot->started_at < r.started_at) slot = &r;
      continue;
    }
    const bool in_scenario = by_table ? ScenarioTable(r.scenario) == scenario : r.scenario == scenario;
    if (!in_scenario) {
      ++other_scenario;
      continue;
    }
    const auto key = std::make_pair(HostName(r.environment), r.case_key.empty() ? r.id : r.case_key);
    const Record*& slot = latest[key];
    // Rounds of one case (--rounds) are not a configuration measured again: they count together.
    if (r.round && r.round->rounds > 1 && !r.llm) {
      rounds_of[key].push_back(&r);
    } else if (slot) {
      ++superseded;
    }
    if (!slot || slot->started_at < r.started_at) slot = &r;
  }
  return selected;
}

// One model only, and what was left out, said as notes.
Status NoteSelection(const RecordSelection& selected, const RecommendQuery& query, Recommendation& out) {
  const auto& [latest, accuracy_of, rounds_of, not_ok, invalid, superseded, other_scenario, other_model] = selected;
  std::set<std::string> models;
  for (const auto& [key, r] : latest) models.insert(r->model);
  if (models.size() > 1) {
    return Status::Error("the " + out.scenario + " records hold " + std::to_string(models.size()) +
                         " models (" + Join(std::vector<std::string>(models.begin(), models.end()), ", ") +
                         "): a recommendation compares configurations of one model; name it with --model");
  }
  if (!query.model.empty() && models.empty() && other_model > 0) {
    out.notes.push_back("no record of model '" + query.model + "' to compare (" + std::to_string(other_model) +
                        " record(s) of other models)");
  }
  if (not_ok) out.notes.push_back(std::to_string(not_ok) + " record(s) left out: status not ok");
  if (invalid) out.notes.push_back(std::to_string(invalid) + " record(s) left out: INVALID (see their verdicts)");
  if (other_scenario) {
    out.notes.push_back(std::to_string(other_scenario) + " record(s) of other scenarios left out (this compares " +
                        out.scenario + "; choose another with --scenario)");
  }
  if (superseded) {
    out.notes.push_back(std::to_string(superseded) + " older record(s) of a configuration measured again left out (the latest counts)");
  }

  return Status::Ok();
}

// A configuration per latest record, its accuracy joined, its rounds summarized. Returns, per
// configuration, its rounds' values (ms) of `round_metric` (empty without rounds).
std::vector<std::vector<double>> BuildConfigurations(const RecordSelection& selected, const std::string& round_metric,
                                                     Recommendation& out) {
  const auto& [latest, accuracy_of, rounds_of, not_ok, invalid, superseded, other_scenario, other_model] = selected;
  std::set<std::string> hosts, scenarios;
  for (const auto& [key, r] : latest) {
    hosts.insert(key.first);
    scenarios.insert(r->scenario);
  }
  const std::vector<std::string> accuracy_columns = {"latency_case_key", "top1", "top1_ci_low", "top1_ci_high", "top5", "images"};
  std::set<std::pair<std::string, std::string>> joined;
  std::vector<std::vector<double>> round_values;
  std::vector<std::pair<std::string, std::string>> emulated;  // label, what emulated its device
  int on_hardware = 0;
  for (const auto& [key, r] : latest) {
    Configuration c;
    c.row = FlattenRecord(*r);
    c.record_ids.push_back(r->id);
    const auto accuracy = accuracy_of.find(key);
    if (accuracy != accuracy_of.end()) {
      const nlohmann::ordered_json accuracy_row = FlattenRecord(*accuracy->second);
      for (const std::string& column : accuracy_columns) c.row[column] = accuracy_row[column];
      c.record_ids.push_back(accuracy->second->id);
      joined.insert(key);
    }
    c.label = ConfigurationLabel(c.row, scenarios.size() > 1, hosts.size() > 1);
    if (const std::string device = EmulatedDeviceOf(*r); !device.empty()) emulated.emplace_back(c.label, device);
    else ++on_hardware;
    round_values.emplace_back();
    if (const auto it = rounds_of.find(key); it != rounds_of.end() && it->second.size() >= 2) {
      // Rounds: the configuration's latency is the median of its rounds', with its interval.
      std::vector<double> p50, p99;
      c.record_ids.clear();
      for (const Record* round : it->second) {
        c.record_ids.push_back(round->id);
        if (const auto v = round->summary.Percentile(0.5)) p50.push_back(static_cast<double>(*v) * 1e-6);
        if (const auto v = round->summary.Percentile(0.99)) p99.push_back(static_cast<double>(*v) * 1e-6);
      }
      const RoundsMetric p50_rounds = SummarizeRoundValues("p50", p50);
      const RoundsMetric p99_rounds = SummarizeRoundValues("p99", p99);
      if (p50_rounds.median) c.row["p50_ms"] = *p50_rounds.median;
      if (p99_rounds.median) c.row["p99_ms"] = *p99_rounds.median;
      std::string note = c.label + ": " + std::to_string(it->second.size()) + " VALID rounds; p50 and p99 are their medians";
      if (p50_rounds.ci_low) {
        note += " (p50 " + WithUnit(*p50_rounds.median, FlatUnit::kMilliseconds) + ", 95% interval " +
                WithUnit(*p50_rounds.ci_low, FlatUnit::kMilliseconds) + " to " + WithUnit(*p50_rounds.ci_high, FlatUnit::kMilliseconds) + ")";
      }
      out.notes.push_back(note);
      round_values.back() = round_metric == "p99" ? p99 : p50;
    }
    out.configurations.push_back(std::move(c));
  }
  for (const auto& [key, r] : accuracy_of) {
    if (joined.count(key)) continue;
    out.notes.push_back("the accuracy of " + r->model + (r->variant.empty() ? "" : "?variant=" + r->variant) + " on " +
                        r->effective_target + " has no " + out.scenario +
                        " record to join (its latency_case_key " + key.second +
                        "): measure it with `edgebench run` on the same artifact and target");
  }

  if (!emulated.empty() && on_hardware > 0) {
    for (const auto& [label, device] : emulated) {
      out.notes.push_back(label + " ran on an emulated device (" + device +
                          "): its latencies are this machine's CPU running the device's code, not a device's; it is "
                          "ranked here against hardware by what it measured");
    }
  }
  return round_values;
}

// Objectives no configuration has are dropped, said; a configuration lacking one that others
// have is out of the ranking, said.
void ActivateObjectives(const RecommendQuery& query, Recommendation& out) {
  const size_t n_objectives = query.objectives.size();
  out.objective_active.assign(n_objectives, false);
  for (Configuration& c : out.configurations) {
    for (const Objective& o : query.objectives) c.objective_values.push_back(NumberIn(c.row, o.column));
  }
  for (size_t k = 0; k < n_objectives; ++k) {
    for (const Configuration& c : out.configurations) {
      if (c.objective_values[k]) out.objective_active[k] = true;
    }
    if (!out.objective_active[k] && !out.configurations.empty()) {
      std::string why;
      for (const Configuration& c : out.configurations) {
        if (c.row.contains("energy_note") && c.row["energy_note"].is_string() &&
            query.objectives[k].column == "energy_mj_per_query") {
          why = " (" + c.row["energy_note"].get<std::string>() + ")";
          break;
        }
      }
      out.notes.push_back("objective " + query.objectives[k].name + " dropped: no configuration has " +
                          query.objectives[k].column + why);
    }
  }

}

// The configurations with every active objective measured and every constraint met.
std::vector<size_t> MarkEligible(const RecommendQuery& query, bool any_active, Recommendation& out) {
  const size_t n_objectives = query.objectives.size();
  std::vector<size_t> eligible;
  for (size_t i = 0; i < out.configurations.size(); ++i) {
    Configuration& c = out.configurations[i];
    for (size_t k = 0; k < n_objectives; ++k) {
      if (out.objective_active[k] && !c.objective_values[k]) c.missing.push_back(query.objectives[k].column);
    }
    for (const Constraint& constraint : query.constraints) {
      const auto value = NumberIn(c.row, constraint.column);
      if (!value) {
        c.failed_constraints.push_back(constraint.text + " (" + constraint.column + " unknown)");
      } else if (!Meets(constraint, *value)) {
        c.failed_constraints.push_back(constraint.text + " (" + WithUnit(*value, constraint.unit) + ")");
      }
    }
    c.eligible = any_active && c.missing.empty() && c.failed_constraints.empty();
    if (c.eligible) eligible.push_back(i);
  }

  return eligible;
}

// The eligible configurations no other eligible one dominates.
void MarkFront(const RecommendQuery& query, const std::vector<size_t>& eligible, Recommendation& out) {
  for (size_t i : eligible) {
    bool dominated = false;
    for (size_t j : eligible) {
      if (i != j && Dominates(out.configurations[j], out.configurations[i], query.objectives, out.objective_active)) {
        dominated = true;
        break;
      }
    }
    out.configurations[i].on_front = !dominated;
  }
}

// The front in rule order, the winner and the runner-up, and why the runner-up lost (with the
// rounds' verdict where both have rounds).
void PickWinner(const RecommendQuery& query, const std::vector<size_t>& eligible,
                const std::vector<std::vector<double>>& round_values, const std::string& round_metric,
                Recommendation& out) {
  std::vector<size_t> front;
  for (size_t i : eligible) {
    if (out.configurations[i].on_front) front.push_back(i);
  }
  // The front in rule order: pick, remove, pick again.
  std::vector<size_t> rest = front;
  while (!rest.empty()) {
    const size_t pick = *PickByRule(rest, out.configurations, query.objectives, out.objective_active, query.tie_tolerance);
    out.front.push_back(pick);
    rest.erase(std::find(rest.begin(), rest.end(), pick));
  }
  if (out.front.empty()) {
    out.no_winner_reason = out.configurations.empty()
                               ? "no ok, VALID " + out.scenario + " record to compare"
                               : "no configuration meets every constraint with every objective measured";
    return;
  }
  out.winner = out.front.front();
  std::vector<size_t> others;
  for (size_t i : eligible) {
    if (i != *out.winner) others.push_back(i);
  }
  out.runner_up = PickByRule(others, out.configurations, query.objectives, out.objective_active, query.tie_tolerance);
  if (out.runner_up) {
    out.runner_up_reason = LossReason(out.configurations[*out.winner], out.configurations[*out.runner_up], query,
                                      out.objective_active);
    const auto& above = round_values[*out.winner];
    const auto& below = round_values[*out.runner_up];
    if (!above.empty() && !below.empty()) {
      const NeighbourVerdict v = JudgeRounds(above, below);
      if (v.not_resolved()) {
        out.runner_up_reason += "; across rounds their " + round_metric + " are not separable at this noise (" +
                                v.ChangeText() + "): the winner's lead on latency is within what varies from round to round";
      } else if (v.verdict == "not tested") {
        out.runner_up_reason += "; across rounds their " + round_metric + " were not tested (" + v.note + ")";
      }
    }
  }
}

}  // namespace

Result<Recommendation> Recommend(const std::vector<Record>& records, const RecommendQuery& query) {
  if (query.objectives.empty()) return Status::Error("recommend needs at least one objective");
  Recommendation out;
  out.query = query;
  out.scenario = ComparedScenario(query);
  const RecordSelection selected = SelectRecords(records, query, out.scenario);
  if (Status one_model = NoteSelection(selected, query, out); !one_model.ok()) return one_model;
  // Per configuration: its rounds' values (ms) of the first objective when it is p50_ms or p99_ms
  // (p50 otherwise), if it has rounds.
  const std::string round_metric = query.objectives.front().column == "p99_ms" ? "p99" : "p50";
  const std::vector<std::vector<double>> round_values = BuildConfigurations(selected, round_metric, out);
  ActivateObjectives(query, out);
  const bool any_active = std::find(out.objective_active.begin(), out.objective_active.end(), true) !=
                          out.objective_active.end();
  const std::vector<size_t> eligible = MarkEligible(query, any_active, out);
  MarkFront(query, eligible, out);
  out.rule = RuleText(query, out.objective_active);
  if (!any_active) {
    out.no_winner_reason = out.configurations.empty()
                               ? "no ok, VALID " + out.scenario + " record to compare"
                               : "no configuration has a value for any objective";
    return out;
  }
  PickWinner(query, eligible, round_values, round_metric, out);
  return out;
}

nlohmann::json RecommendationToJson(const Recommendation& r) {
  Json objectives = Json::array();
  for (size_t k = 0; k < r.query.objectives.size(); ++k) {
    const Objective& o = r.query.objectives[k];
    objectives.push_back({{"name", o.name},
                          {"column", o.column},
                          {"direction", o.direction == Direction::kLower ? "lower" : "higher"},
                          {"unit", FlatUnitName(o.unit)},
                          {"active", r.objective_active.empty() ? true : static_cast<bool>(r.objective_active[k])}});
  }
  Json constraints = Json::array();
  for (const Constraint& c : r.query.constraints) {
    constraints.push_back({{"text", c.text},
                           {"column", c.column},
                           {"op", BoundRelationText(c.comparison)},
                           {"bound", c.bound},
                           {"unit", FlatUnitName(c.unit)}});
  }
  Json configurations = Json::array();
  for (size_t i = 0; i < r.configurations.size(); ++i) {
    const Configuration& c = r.configurations[i];
    Json values = Json::object();
    for (size_t k = 0; k < r.query.objectives.size(); ++k) {
      values[r.query.objectives[k].column] = c.objective_values[k] ? Json(*c.objective_values[k]) : Json(nullptr);
    }
    configurations.push_back({{"index", i},
                              {"label", c.label},
                              {"record_ids", c.record_ids},
                              {"objectives", values},
                              {"eligible", c.eligible},
                              {"on_front", c.on_front},
                              {"missing", c.missing},
                              {"failed_constraints", c.failed_constraints},
                              {"row", Json::parse(c.row.dump())}});
  }
  Json out = {{"schema", "edgebench.recommendation/1"},
              {"scenario", r.scenario},
              {"rule", r.rule},
              {"tie_tolerance", r.query.tie_tolerance},
              {"objectives", objectives},
              {"constraints", constraints},
              {"configurations", configurations},
              {"front", r.front},
              {"winner", r.winner ? Json(*r.winner) : Json(nullptr)},
              {"runner_up", r.runner_up ? Json(*r.runner_up) : Json(nullptr)},
              {"runner_up_reason", r.runner_up ? Json(r.runner_up_reason) : Json(nullptr)},
              {"no_winner_reason", r.winner ? Json(nullptr) : Json(r.no_winner_reason)},
              {"notes", r.notes}};
  return out;
}

std::string RecommendationText(const Recommendation& r) {
  std::ostringstream out;
  std::vector<std::string> columns;  // objectives, then constrained columns not among them
  std::vector<FlatUnit> units;
  for (size_t k = 0; k < r.query.objectives.size(); ++k) {
    if (r.objective_active[k]) {
      columns.push_back(r.query.objectives[k].column);
      units.push_back(r.query.objectives[k].unit);
    }
  }
  for (const Constraint& c : r.query.constraints) {
    if (std::find(columns.begin(), columns.end(), c.column) == columns.end()) {
      columns.push_back(c.column);
      units.push_back(c.unit);
    }
  }
  out << "scenario: " << r.scenario << ", " << r.configurations.size() << " configuration(s)\n";
  out << "objectives:";
  for (size_t k = 0; k < r.query.objectives.size(); ++k) {
    out << (k ? ", " : " ") << ObjectiveText(r.query.objectives[k]) << (r.objective_active[k] ? "" : " [dropped]");
  }
  out << "\nconstraints:";
  if (r.query.constraints.empty()) out << " none";
  for (size_t k = 0; k < r.query.constraints.size(); ++k) {
    const Constraint& c = r.query.constraints[k];
    out << (k ? ", " : " ") << c.column << " " << BoundRelationText(c.comparison) << " " << WithUnit(c.bound, c.unit);
  }
  out << "\nrule: " << r.rule << "\n\n";

  if (!r.configurations.empty()) {
    size_t label_width = std::string("configuration").size();
    for (const Configuration& c : r.configurations) label_width = std::max(label_width, c.label.size());
    std::vector<size_t> widths;
    for (const std::string& name : columns) widths.push_back(std::max<size_t>(name.size(), 10));
    out << std::left << std::setw(static_cast<int>(label_width)) << "configuration";
    for (size_t k = 0; k < columns.size(); ++k) out << "  " << std::right << std::setw(static_cast<int>(widths[k])) << columns[k];
    out << "  " << std::left << "front  verdict\n";
    // Rule order: the front first, then the rest as they came.
    std::vector<size_t> order = r.front;
    for (size_t i = 0; i < r.configurations.size(); ++i) {
      if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
    }
    for (size_t i : order) {
      const Configuration& c = r.configurations[i];
      out << std::left << std::setw(static_cast<int>(label_width)) << c.label;
      for (size_t k = 0; k < columns.size(); ++k) {
        const auto v = NumberIn(c.row, columns[k]);
        out << "  " << std::right << std::setw(static_cast<int>(widths[k])) << (v ? FormatMetricNumber(*v) : "-");
      }
      std::string verdict = r.winner == i ? "winner" : r.runner_up == i ? "runner-up" : "";
      if (!c.failed_constraints.empty()) verdict = "misses a constraint";
      else if (!c.missing.empty()) verdict = "not measured: " + c.missing.front();
      else if (verdict.empty() && !c.on_front) verdict = "dominated";
      out << "  " << std::left << std::setw(5) << (c.on_front ? "yes" : "") << "  " << verdict << "\n";
    }
    out << "\n";
  }
  if (r.winner) {
    const Configuration& w = r.configurations[*r.winner];
    out << "winner: " << w.label;
    for (size_t k = 0; k < r.query.objectives.size(); ++k) {
      if (r.objective_active[k]) {
        out << (k ? ", " : ": ") << r.query.objectives[k].column << " "
            << WithUnit(*w.objective_values[k], r.query.objectives[k].unit);
      }
    }
    out << "\n";
    if (r.runner_up) {
      out << "runner-up: " << r.configurations[*r.runner_up].label << ": " << r.runner_up_reason << "\n";
    } else {
      out << "runner-up: none (no other configuration meets every constraint)\n";
    }
  } else {
    out << "no winner: " << r.no_winner_reason << "\n";
  }
  bool header = false;
  for (const Configuration& c : r.configurations) {
    if (c.failed_constraints.empty() && c.missing.empty()) continue;
    if (!header) out << "left out:\n";
    header = true;
    out << "  " << c.label << ": ";
    std::string reasons;
    for (const std::string& f : c.failed_constraints) reasons += (reasons.empty() ? "misses " : ", misses ") + f;
    for (const std::string& m : c.missing) reasons += (reasons.empty() ? "" : ", ") + m + " not measured";
    out << reasons << "\n";
  }
  for (const std::string& note : r.notes) out << "note: " << note << "\n";
  return out.str();
}

}  // namespace edgebench
