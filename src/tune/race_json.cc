#include "tune/race_json.h"

#include <cmath>

namespace edgebench {

nlohmann::json RaceSettingsToJson(const RaceSettings& s) {
  nlohmann::json constraints = nlohmann::json::array();
  for (const RaceConstraint& c : s.constraints) constraints.push_back(c.constraint.text);
  return {{"objective", s.objective.name},
          {"constraints", constraints},
          {"confidence", s.confidence},
          {"initial_queries", s.initial_queries},
          {"max_rounds", s.max_rounds},
          {"tie_tolerance", s.tie_tolerance},
          {"precision", s.precision},
          {"budget_ns", s.budget_ns},
          {"exhaustive", s.exhaustive}};
}

Result<RaceSettings> RaceSettingsFromJson(const nlohmann::json& j) {
  try {
    RaceSettings s;
    auto objective = ParseRaceMetric(j.at("objective").get<std::string>());
    if (!objective.ok()) return objective.status();
    s.objective = objective.take();
    for (const auto& text : j.at("constraints")) {
      auto constraint = ParseConstraint(text.get<std::string>());
      if (!constraint.ok()) return constraint.status();
      auto metric = RaceMetricForConstraint(constraint.value());
      if (!metric.ok()) return metric.status();
      s.constraints.push_back({constraint.take(), metric.take()});
    }
    s.confidence = j.at("confidence").get<double>();
    s.initial_queries = j.at("initial_queries").get<int64_t>();
    s.max_rounds = j.at("max_rounds").get<int>();
    s.tie_tolerance = j.at("tie_tolerance").get<double>();
    s.precision = j.value("precision", 0.0);
    s.budget_ns = j.at("budget_ns").get<int64_t>();
    s.exhaustive = j.at("exhaustive").get<bool>();
    return s;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed tune settings: ") + e.what());
  }
}

nlohmann::json RaceResultToJson(const RaceResult& r) {
  const auto interval = [](const Interval& i) {
    const auto v = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); };
    return nlohmann::json{{"estimate", v(i.estimate)}, {"low", v(i.low)}, {"high", v(i.high)}, {"samples", i.samples}};
  };
  const auto round_intervals = [&](const EntrantState& e) {
    nlohmann::json list = nlohmann::json::array();
    for (const Interval& i : e.round_intervals) list.push_back(interval(i));
    return list;
  };
  nlohmann::json entrants = nlohmann::json::array();
  for (const EntrantState& e : r.entrants) {
    nlohmann::json constraints = nlohmann::json::array();
    for (const Interval& i : e.constraints) constraints.push_back(interval(i));
    entrants.push_back({{"label", e.label},
                        {"alive", e.alive},
                        {"dropped_round", e.dropped_round < 0 ? nlohmann::json(nullptr) : nlohmann::json(e.dropped_round)},
                        {"drop_reason", e.drop_reason},
                        {"rounds", e.rounds_run},
                        {"queries", e.queries},
                        {"measured_s", e.measured_ns / 1e9},
                        {"case_s", e.case_ns / 1e9},
                        {"objective", interval(e.objective)},
                        {"round_intervals", round_intervals(e)},
                        {"constraints", constraints},
                        {"notes", e.notes},
                        {"record_ids", e.record_ids}});
  }
  nlohmann::json rounds = nlohmann::json::array();
  for (const RaceRound& round : r.rounds) {
    nlohmann::json list = nlohmann::json::array();
    for (const RoundEntrant& e : round.entrants) {
      list.push_back({{"entrant", e.entrant},
                      {"label", r.entrants[e.entrant].label},
                      {"objective", interval(e.objective)},
                      {"dropped", e.dropped},
                      {"reason", e.reason}});
    }
    rounds.push_back({{"round", round.round}, {"queries_each", round.queries_each}, {"entrants", list}});
  }
  const auto index = [](const std::optional<size_t>& i) { return i ? nlohmann::json(*i) : nlohmann::json(nullptr); };
  const auto label = [&](const std::optional<size_t>& i) {
    return i ? nlohmann::json(r.entrants[*i].label) : nlohmann::json(nullptr);
  };
  return {{"settings", RaceSettingsToJson(r.settings)},
          {"objective_unit", r.settings.objective.unit},
          {"interval_confidence", 1 - r.interval_alpha},
          {"outcome", r.outcome},
          {"outcome_text", r.outcome_text},
          {"winner", index(r.winner)},
          {"winner_label", label(r.winner)},
          {"winner_caveats", r.winner_caveats},
          {"runner_up", index(r.runner_up)},
          {"runner_up_label", label(r.runner_up)},
          {"margin", r.margin},
          {"separated", r.separated},
          {"runner_up_round", r.runner_up_round < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.runner_up_round)},
          {"tied_with_winner", r.tied_with_winner},
          {"closest_infeasible", index(r.closest_infeasible)},
          {"spent_case_s", r.spent_case_ns / 1e9},
          {"spent_measured_s", r.spent_measured_ns / 1e9},
          {"final_queries", r.final_queries},
          {"exhaustive_case_s", r.exhaustive_case_ns / 1e9},
          {"exhaustive_measured_s", r.exhaustive_measured_ns / 1e9},
          {"entrants", entrants},
          {"rounds", rounds}};
}

}  // namespace edgebench
