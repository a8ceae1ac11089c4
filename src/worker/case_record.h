// The record of one case, the parts every kind of case shares: its configuration and environment
// before anything runs, a scenario's result taken into it, the target as it ran, and a failed
// record. worker/run_case.cc (one model) and worker/pipeline_case.cc (a pipeline) both build
// their records with these; so do the modes' orchestrators for cases that never ran.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "backends/registry.h"
#include "backends/target.h"
#include "load/scenario.h"
#include "record/record.h"
#include "plan/case_spec.h"

namespace edgebench {

// Called as each stage starts ("load", "inputs", "prepare", "run"), so that a crash can be dated
// to its stage by the orchestrator.
using StageCallback = std::function<void(const std::string& stage)>;

// The record's configuration and environment, before anything runs. Also used by the
// orchestrator for cases whose worker died, and for skipped cases.
Record MakeBaseRecord(const CaseSpec& spec, const Registry& registry);

// The target as it ran: `requested` with the options the runtime reports applied over it.
std::string EffectiveTarget(const Target& requested, const std::map<std::string, std::string>& options);

// Moves a tensor scenario's samples, timing and stop reason into `r` (a run stopped at
// max_queries before min_duration gets a note saying so). When the scenario failed, returns the
// failed record, naming the stream and query; otherwise nullopt and `r` is ready to finish.
std::optional<Record> TakeScenarioResult(Record& r, ScenarioResult& result);

// `record` ended at `stage` with `status` and `error`; summary and verdict filled in.
Record FailedRecord(Record record, CaseStatus status, const std::string& stage, const std::string& error);

}  // namespace edgebench
