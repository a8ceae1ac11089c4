// A race in the store: the tag every case of a race carries (CaseSpec::tune, Record::tune), the
// observation a record gives the race, and the replay of a race from its records, which is how
// `tune --resume` continues one and how `edgebench report` shows it.
//
// The tag holds what the race needs to be replayed: its id, the settings, every configuration's
// label and inferences per query, the configurations pruned before running and why, and which
// configuration and round this case is. Replaying the records through RunRace gives the same
// drops and the same answer as the live race: every decision is a function of the records (the
// budget is counted in the records' own case times, not the clock).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"
#include "tune/race.h"

namespace edgebench {

struct PrunedConfiguration {
  std::string label;
  std::string reason;
};

// What is common to every case of one race.
struct RaceDescription {
  std::string id;        // 16 hex digits: a hash of everything below and of what is measured
  std::string model;
  std::string scenario;
  std::string space;     // --space as given
  RaceSettings settings;
  std::vector<RaceEntrant> entrants;
  std::vector<PrunedConfiguration> pruned;
};

TuneTag RaceTag(const RaceDescription& race, size_t entrant, int round, int64_t queries);
// The description a tag holds, and which entrant and round it is; an error for a tag that is
// not a race's (an older or foreign record).
struct TaggedRound {
  RaceDescription race;
  size_t entrant = 0;
  int round = 0;
};
Result<TaggedRound> ReadRaceTag(const TuneTag& tag);

// What a record contributes: its query latencies, the per-record values the settings' metrics
// read (energy per query), its times and its verdict; a record that did not measure is a
// failure with its status and error.
RaceObservation ObservationFromRecord(const Record& record, const RaceSettings& settings);

struct StoredRace {
  RaceDescription race;
  RaceResult result;
  bool complete = true;  // false: the records end before the race does (interrupted; --resume)
};

// Every race whose records the list holds, replayed, in the order their first records appear.
std::vector<StoredRace> ReplayRaces(const std::vector<Record>& records);

}  // namespace edgebench
