// Runs one case in this process and returns its record: resolve the target, load the sessions
// the scenario asks for, bind shapes and prepare, make inputs, run the scenario, fill the record.
// The worker process calls this; so does `--in-process`.
#pragma once

#include <functional>
#include <string>

#include "backends/registry.h"
#include "load/observer.h"
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

// `record` ended at `stage` with `status` and `error`; summary and verdict filled in.
Record FailedRecord(Record record, CaseStatus status, const std::string& stage, const std::string& error);

}  // namespace edgebench
