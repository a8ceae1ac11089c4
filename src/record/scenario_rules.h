// What the record needs to know of a load scenario: the rules its record is summarized and
// judged by, and its streams. Each scenario's entry (load/scenario_registry.h) declares them;
// the record is handed them (record/record.h FinishRecordByRules, RecordFromJsonByRules; the
// registry's by load/finish_record.h), so that record/ depends on no scenario (nor on load/).
#pragma once

#include <optional>
#include <string>

#include "core/run_settings.h"

namespace edgebench {

// What a scenario's record holds beyond the latency summary, and how it is judged
// (docs/metrics.md, "Verdict"; record/record_load.cc reads these).
struct ScenarioRecordRules {
  // The coefficient of variation judges it (--max-cv). Not where latency under queueing
  // (server) or its drift over a long run (soak) is what the scenario measures.
  bool judge_cv = true;
  // The stability rule over the last windows judges it (closed loops that reach a steady state).
  bool judge_stability = false;
  // The server section: offered and achieved rate, start delay, backlog; --p99-bound-ms judges
  // it and early stopping uses the bound.
  bool server = false;
  // Samples per second: queries x the batch bound on input 0's first axis (offline).
  bool throughput = false;
  // Drift of the windows against the first steady one (soak).
  bool drift = false;
  // The one-stream closed loop (single-stream): the latency the other scenarios' records are
  // set against (load inflation), planned and listed first, and the scenario a case shows no
  // name for.
  bool baseline = false;
  // Its throughput is one of compare's primary metrics (the scenarios that load the system
  // beyond one stream: multi-stream, server, offline).
  bool compared_by_throughput = false;
  // `tune` races it: a closed loop whose every query's latency is a sample of one configuration
  // (single-stream, multi-stream), which the race's intervals need.
  bool raced = false;
  // Frames delivered at a fixed rate (camera): the camera section, with frames delivered,
  // dropped and late and the sustained frame rate per stream.
  bool camera = false;
};

struct ScenarioRules {
  ScenarioRecordRules rules;
  int streams = 1;  // the streams (or workers) issuing its queries, under the record's settings
  int64_t frame_period_ns = 0;  // camera: the interval between a stream's frames
};

// The rules of scenario `scenario` (a record's canonical text) under `settings`; nullopt for a
// text no scenario parses. The record's reader and FinishRecordByRules are handed one: the
// scenario registry's (load/finish_record.h).
using ScenarioRulesLookup = std::optional<ScenarioRules> (*)(const std::string& scenario, const RunSettings& settings);

}  // namespace edgebench
