// What `edgebench tune` races, planned from its options: the race's settings (objective,
// constraints, confidence, rounds, budget), the configurations of --space each planned as an
// ordinary case, those that cannot run pruned before anything runs (with the reason its case
// would have recorded), and the race's identity, from which its records are found again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "plan/case_spec.h"
#include "tune/race.h"
#include "tune/race_records.h"

namespace edgebench {

struct RacePlanOptions {
  std::string model_path;
  std::string model_name;
  std::string space;
  std::string objective = "p99";
  std::vector<std::string> constraints;
  std::string scenario = "single-stream";
  double confidence = 0.95;
  int64_t queries = 0;  // round 0's queries per configuration; 0: chosen from the objective
  int rounds = 5;
  double precision_percent = 5;
  std::string budget;  // e.g. "10m"; empty: none
  double tie_percent = 1;
  int64_t warmup = 20;
  uint64_t seed = 0;
  std::vector<std::string> dims;
  bool exhaustive = false;
};

struct RacePlan {
  RaceSettings settings;
  RaceDescription race;      // model, scenario, entrants, pruned, id
  std::vector<CaseSpec> specs;  // one per entrant, in race.entrants' order
};

// An error is a bad argument, naming the flag. A plan whose configurations were all pruned
// has no entrants (race.pruned says why each).
Result<RacePlan> PlanRace(const RacePlanOptions& options, const Registry& registry);

}  // namespace edgebench
