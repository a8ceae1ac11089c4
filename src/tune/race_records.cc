#include "tune/race_records.h"

#include <map>

#include "metrics/flat_record.h"
#include "tune/race_json.h"

namespace edgebench {

TuneTag RaceTag(const RaceDescription& race, size_t entrant, int round, int64_t queries) {
  TuneTag tag;
  tag.race = race.id;
  tag.model = race.model;
  tag.scenario = race.scenario;
  tag.space = race.space;
  tag.settings = RaceSettingsToJson(race.settings);
  for (const RaceEntrant& e : race.entrants) tag.entrants.push_back({e.label, e.inferences_per_query});
  for (const PrunedConfiguration& p : race.pruned) tag.pruned.push_back({p.label, p.reason});
  tag.entrant = entrant;
  tag.configuration = race.entrants.at(entrant).label;
  tag.round = round;
  tag.queries = queries;
  return tag;
}

Result<TaggedRound> ReadRaceTag(const TuneTag& tag) {
  TaggedRound tagged;
  RaceDescription& race = tagged.race;
  race.id = tag.race;
  race.model = tag.model;
  race.scenario = tag.scenario;
  race.space = tag.space;
  auto settings = RaceSettingsFromJson(tag.settings);
  if (!settings.ok()) return settings.status();
  race.settings = settings.take();
  for (const TuneEntrantTag& e : tag.entrants) race.entrants.push_back({e.label, e.inferences_per_query});
  for (const TunePrunedTag& p : tag.pruned) race.pruned.push_back({p.label, p.reason});
  tagged.entrant = tag.entrant;
  tagged.round = tag.round;
  return tagged;
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
    if (!r.tune) continue;
    auto tag = ReadRaceTag(*r.tune);
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
