#include "tune/race_records.h"

#include <map>

#include "report/flat_record.h"

namespace edgebench {

nlohmann::json RaceTag(const RaceDescription& race, size_t entrant, int round, int64_t queries) {
  nlohmann::json entrants = nlohmann::json::array();
  for (const RaceEntrant& e : race.entrants) {
    entrants.push_back({{"label", e.label}, {"inferences_per_query", e.inferences_per_query}});
  }
  nlohmann::json pruned = nlohmann::json::array();
  for (const PrunedConfiguration& p : race.pruned) pruned.push_back({{"label", p.label}, {"reason", p.reason}});
  return {{"race", race.id},
          {"model", race.model},
          {"scenario", race.scenario},
          {"space", race.space},
          {"settings", RaceSettingsToJson(race.settings)},
          {"entrants", entrants},
          {"pruned", pruned},
          {"entrant", entrant},
          {"configuration", race.entrants.at(entrant).label},
          {"round", round},
          {"queries", queries}};
}

Result<TaggedRound> ReadRaceTag(const nlohmann::json& tag) {
  try {
    TaggedRound tagged;
    RaceDescription& race = tagged.race;
    race.id = tag.at("race").get<std::string>();
    race.model = tag.at("model").get<std::string>();
    race.scenario = tag.at("scenario").get<std::string>();
    race.space = tag.at("space").get<std::string>();
    auto settings = RaceSettingsFromJson(tag.at("settings"));
    if (!settings.ok()) return settings.status();
    race.settings = settings.take();
    for (const auto& e : tag.at("entrants")) {
      race.entrants.push_back({e.at("label").get<std::string>(), e.at("inferences_per_query").get<double>()});
    }
    for (const auto& p : tag.at("pruned")) {
      race.pruned.push_back({p.at("label").get<std::string>(), p.at("reason").get<std::string>()});
    }
    tagged.entrant = tag.at("entrant").get<size_t>();
    tagged.round = tag.at("round").get<int>();
    if (tagged.entrant >= race.entrants.size()) return Status::Error("tune tag names configuration " + std::to_string(tagged.entrant) + " of " + std::to_string(race.entrants.size()));
    return tagged;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed tune tag: ") + e.what());
  }
}

RaceObservation ObservationFromRecord(const Record& r, const RaceSettings& settings) {
  RaceObservation o;
  o.record_id = r.id;
  int64_t warmup = 0;
  for (int64_t ns : r.warmup_ns) warmup += ns;
  o.measured_ns = r.measured_wall_ns;
  o.case_ns = r.load_ns + r.inputs_ns + r.prepare_ns + warmup + r.measured_wall_ns;
  if (r.status != CaseStatus::kOk) {
    std::string error = r.error;
    if (const size_t newline = error.find('\n'); newline != std::string::npos) error = error.substr(0, newline);
    if (error.size() > 300) error = error.substr(0, 300) + "...";
    o.failure = CaseStatusName(r.status) + (r.failed_stage.empty() ? "" : " at " + r.failed_stage) +
                (error.empty() ? "" : ": " + error);
    return o;
  }
  if (r.measured_ns.empty()) {
    o.failure = "the record holds no raw query latencies (" +
                std::string(r.measured_histograms ? "only histograms, past the raw-sample cap" : "no measured query") + ")";
    return o;
  }
  o.ok = true;
  o.latencies_ns = r.measured_ns;
  if (!r.valid) o.invalid_reasons = r.invalid_reasons;
  std::vector<const RaceMetric*> metrics = {&settings.objective};
  for (const RaceConstraint& c : settings.constraints) metrics.push_back(&c.metric);
  nlohmann::ordered_json row;
  for (const RaceMetric* metric : metrics) {
    if (metric->kind != RaceMetric::Kind::kRecordValue) continue;
    if (row.empty()) row = FlattenRecord(r);
    auto it = row.find(metric->column);
    if (it != row.end() && it->is_number()) {
      o.record_values[metric->column] = it->get<double>();
    } else {
      const bool explained = row.contains("energy_note") && row["energy_note"].is_string();
      o.record_value_notes[metric->column] = explained ? row["energy_note"].get<std::string>() : "not in the record";
    }
  }
  return o;
}

std::vector<StoredRace> ReplayRaces(const std::vector<Record>& records) {
  std::vector<std::string> order;
  std::map<std::string, RaceDescription> races;
  // (race, entrant, round) -> the last record of it
  std::map<std::string, std::map<std::pair<size_t, int>, const Record*>> rounds;
  for (const Record& r : records) {
    if (r.tune.is_null()) continue;
    auto tag = ReadRaceTag(r.tune);
    if (!tag.ok()) continue;
    const std::string id = tag.value().race.id;
    if (!races.count(id)) {
      order.push_back(id);
      races.emplace(id, tag.value().race);
    }
    rounds[id][{tag.value().entrant, tag.value().round}] = &r;
  }
  std::vector<StoredRace> replayed;
  for (const std::string& id : order) {
    StoredRace stored;
    stored.race = races.at(id);
    const auto& by_round = rounds[id];
    const RaceSettings& settings = stored.race.settings;
    auto measure = [&](const std::vector<size_t>& entrants, int round,
                       int64_t) -> std::optional<std::vector<RaceObservation>> {
      std::vector<RaceObservation> observations;
      for (size_t e : entrants) {
        auto it = by_round.find({e, round});
        if (it == by_round.end()) {
          stored.complete = false;
          return std::nullopt;
        }
        observations.push_back(ObservationFromRecord(*it->second, settings));
      }
      return observations;
    };
    auto result = RunRace(settings, stored.race.entrants, measure);
    if (!result.ok()) continue;
    stored.result = result.take();
    replayed.push_back(std::move(stored));
  }
  return replayed;
}

}  // namespace edgebench
