// The record's `tune` section (docs/records.md): which race, configuration and round a case of
// `edgebench tune` measured, with what the race needs to be replayed from its records
// (tune/race_records.h). The race's settings (objective, constraints, confidence) are tune's to
// read: kept here as tune wrote them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

struct TuneEntrantTag {
  std::string label;
  double inferences_per_query = 1;
};

struct TunePrunedTag {
  std::string label;
  std::string reason;
};

struct TuneTag {
  std::string race;      // the race's id
  std::string model;
  std::string scenario;
  std::string space;     // --space as given
  nlohmann::json settings;  // tune/race.h RaceSettingsToJson
  std::vector<TuneEntrantTag> entrants;
  std::vector<TunePrunedTag> pruned;
  size_t entrant = 0;    // this case's configuration, an index into entrants
  std::string configuration;
  int round = 0;
  int64_t queries = 0;
};

nlohmann::json TuneTagToJson(const TuneTag& tag);
// An error names what is missing or of the wrong type, or an entrant outside the list.
Result<TuneTag> TuneTagFromJson(const nlohmann::json& json);

}  // namespace edgebench
