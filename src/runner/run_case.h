// Runs one case in this process and returns its record: resolve the target, load the sessions
// the scenario asks for, bind shapes and prepare, make inputs, run the scenario, fill the record.
// The worker process calls this; so does `--in-process`.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "backends/registry.h"
#include "load/observer.h"
#include "load/scenario.h"
#include "record/record.h"
#include "runner/case_spec.h"

namespace edgebench {

// Called as each stage starts ("load", "inputs", "prepare", "run"), so that a crash can be dated
// to its stage by the orchestrator.
using StageCallback = std::function<void(const std::string& stage)>;

// The record's configuration and environment, before anything runs. Also used by the
// orchestrator for cases whose worker died, and for skipped cases.
Record MakeBaseRecord(const CaseSpec& spec, const Registry& registry);

// `observer` (optional) sees the scenario's phases, e.g. to stream them to the orchestrator.
Record RunCase(const CaseSpec& spec, Registry& registry, const StageCallback& on_stage = {},
               RunObserver* observer = nullptr);

// The target as it ran: `requested` with the options the runtime reports applied over it.
std::string EffectiveTarget(const Target& requested, const std::map<std::string, std::string>& options);

// Moves a tensor scenario's samples, timing and stop reason into `r` (a run stopped at
// max_queries before min_duration gets a note saying so). When the scenario failed, returns the
// failed record, naming the stream and query; otherwise nullopt and `r` is ready to finish.
std::optional<Record> TakeScenarioResult(Record& r, ScenarioResult& result);

// `record` ended at `stage` with `status` and `error`; summary and verdict filled in.
Record FailedRecord(Record record, CaseStatus status, const std::string& stage, const std::string& error);

}  // namespace edgebench
