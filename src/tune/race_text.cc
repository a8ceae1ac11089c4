#include "tune/race_text.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/strings.h"
#include "tune/race_json.h"

namespace edgebench {
namespace {

std::string RaceSeconds(int64_t ns) { return FormatNumber(ns >= 10'000'000'000 ? "%.0f s" : "%.3g s", ns / 1e9); }


}  // namespace

std::string RaceText(const RaceDescription& race, const RaceResult& r) {
  const RaceSettings& s = r.settings;
  std::ostringstream out;
  std::string constraints;
  for (const RaceConstraint& c : s.constraints) constraints += (constraints.empty() ? "" : ", ") + c.constraint.text;
  out << "tune " << race.model << " (" << race.scenario << "): " << (s.exhaustive ? "exhaustive sweep" : "race")
      << " on " << s.objective.name << " (" << (s.objective.direction == Direction::kLower ? "lower" : "higher")
      << " is better)" << (constraints.empty() ? "" : ", subject to " + constraints) << "\n";
  out << "  " << race.entrants.size() << " configurations raced";
  if (!race.pruned.empty()) out << ", " << race.pruned.size() << " pruned before running";
  out << "; " << FormatNumber("%g", s.confidence * 100) << "% confidence that no interval misleads (each interval at "
      << FormatNumber("%.4g", (1 - r.interval_alpha) * 100) << "%)\n\n";

  size_t width = 13;
  for (const EntrantState& e : r.entrants) width = std::max(width, e.label.size());
  for (const PrunedConfiguration& p : race.pruned) width = std::max(width, p.label.size());
  const std::string head = s.objective.name + " (" + s.objective.unit + ")";
  out << std::left << std::setw(static_cast<int>(width) + 2) << "configuration" << std::setw(8) << "rounds"
      << std::setw(9) << "queries" << std::setw(20) << head << std::setw(26) << "interval" << "result\n";
  auto row = [&](size_t i) {
    const EntrantState& e = r.entrants[i];
    std::string result;
    if (r.winner && *r.winner == i) {
      result = "WINNER";
    } else if (r.runner_up && *r.runner_up == i) {
      result = "runner-up, " + FormatPercent(r.margin, "%.1f") + " worse" + (e.alive ? "" : "; dropped: " + e.drop_reason);
    } else if (!e.alive) {
      result = "dropped: " + e.drop_reason;
    } else {
      result = "left in the race";
    }
    const bool measured = e.queries > 0;
    out << std::setw(static_cast<int>(width) + 2) << e.label << std::setw(8) << e.rounds_run << std::setw(9)
        << e.queries << std::setw(20)
        << (measured && std::isfinite(e.objective.estimate) ? FormatMetricValue(s.objective, e.objective.estimate)
                                                           : std::string("-"))
        << std::setw(26) << (measured ? FormatInterval(s.objective, e.objective) : std::string("-")) << result
        << "\n";
  };
  // Winner, runner-up, survivors, then the dropped by the round they went out (latest first).
  std::vector<size_t> shown;
  if (r.winner) shown.push_back(*r.winner);
  if (r.runner_up) shown.push_back(*r.runner_up);
  for (size_t i = 0; i < r.entrants.size(); ++i) {
    if (r.entrants[i].alive && std::find(shown.begin(), shown.end(), i) == shown.end()) shown.push_back(i);
  }
  for (int round = static_cast<int>(r.rounds.size()); round >= 0; --round) {
    for (size_t i = 0; i < r.entrants.size(); ++i) {
      if (!r.entrants[i].alive && r.entrants[i].dropped_round == round &&
          std::find(shown.begin(), shown.end(), i) == shown.end()) {
        shown.push_back(i);
      }
    }
  }
  for (size_t i = 0; i < r.entrants.size(); ++i) {
    if (std::find(shown.begin(), shown.end(), i) == shown.end()) shown.push_back(i);
  }
  for (size_t i : shown) row(i);
  for (const PrunedConfiguration& p : race.pruned) {
    out << std::setw(static_cast<int>(width) + 2) << p.label << std::setw(8) << "-" << std::setw(9) << "-"
        << std::setw(20) << "-" << std::setw(26) << "-" << "pruned: " << p.reason << "\n";
  }
  out << "\n";

  out << "outcome: " << r.outcome << ": " << r.outcome_text << "\n";
  if (r.winner) {
    const EntrantState& w = r.entrants[*r.winner];
    out << "winner: " << w.label << ": " << s.objective.name << " " << FormatMetricValue(s.objective, w.objective.estimate)
        << ", interval " << FormatInterval(s.objective, w.objective) << ", from " << w.queries << " queries in "
        << w.rounds_run << " round" << (w.rounds_run == 1 ? "" : "s") << "\n";
    for (const std::string& caveat : r.winner_caveats) out << "  caveat: " << caveat << "\n";
    if (r.runner_up) {
      const EntrantState& u = r.entrants[*r.runner_up];
      out << "runner-up: " << u.label << ": " << FormatMetricValue(s.objective, u.objective.estimate) << " "
          << FormatInterval(s.objective, u.objective) << ", " << FormatPercent(r.margin, "%.1f") << " worse by its estimate"
          << (r.runner_up_round >= 0 ? " than the winner's in round " + std::to_string(r.runner_up_round) +
                                           ", when it was dropped"
                                     : std::string())
          << "; "
          << (r.separated ? "the intervals do not overlap (separated at the confidence above)"
                          : "the intervals overlap: statistically tied with the winner")
          << "\n";
    }
    if (!r.tied_with_winner.empty()) {
      std::vector<std::string> labels;
      for (size_t i : r.tied_with_winner) labels.push_back(r.entrants[i].label);
      out << "statistically tied with the winner (intervals overlap): " << Join(labels, "; ") << "\n";
    }
  } else {
    out << "no winner";
    if (r.closest_infeasible) {
      const EntrantState& c = r.entrants[*r.closest_infeasible];
      out << "; the closest is " << c.label << ":";
      for (size_t k = 0; k < s.constraints.size(); ++k) {
        out << " " << s.constraints[k].metric.name << " "
            << FormatMetricValue(s.constraints[k].metric, c.constraints[k].estimate) << " "
            << FormatInterval(s.constraints[k].metric, c.constraints[k]);
      }
    }
    out << "\n";
  }
  out << "time: " << RaceSeconds(r.spent_case_ns) << " of cases (" << RaceSeconds(r.spent_measured_ns) << " measuring)";
  if (!s.exhaustive && r.final_queries > 0 && r.exhaustive_case_ns > 0) {
    out << "; the exhaustive sweep at the same final precision (" << r.final_queries << " queries for each of "
        << r.entrants.size() << ") would take about " << RaceSeconds(r.exhaustive_case_ns) << " ("
        << RaceSeconds(r.exhaustive_measured_ns) << " measuring): "
        << FormatPercent(static_cast<double>(r.spent_case_ns) / r.exhaustive_case_ns, "%.1f") << " of its case time, "
        << FormatPercent(r.exhaustive_measured_ns > 0 ? static_cast<double>(r.spent_measured_ns) / r.exhaustive_measured_ns : 0, "%.1f")
        << " of its measuring time";
  }
  out << "\n";
  return out.str();
}

nlohmann::json RaceAnswerJson(const RaceDescription& race, const RaceResult& result) {
  nlohmann::json j = RaceResultToJson(result);
  nlohmann::json pruned = nlohmann::json::array();
  for (const PrunedConfiguration& p : race.pruned) pruned.push_back({{"label", p.label}, {"reason", p.reason}});
  j["race"] = race.id;
  j["model"] = race.model;
  j["scenario"] = race.scenario;
  j["space"] = race.space;
  j["pruned"] = pruned;
  return j;
}

}  // namespace edgebench
