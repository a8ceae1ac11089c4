// Runs one case in this process and returns its record: resolve the target, load the sessions
// the scenario asks for, bind shapes and prepare, make inputs, run the scenario, fill the record.
// The worker process calls this; so does `--in-process`.
#pragma once

#include "backends/registry.h"
#include "load/observer.h"
#include "load/scenario.h"
#include "record/record.h"
#include "worker/case_record.h"
#include "plan/case_spec.h"

namespace edgebench {

// `observer` (optional) sees the scenario's phases, e.g. to stream them to the orchestrator.
Record RunCase(const CaseSpec& spec, Registry& registry, const StageCallback& on_stage = {},
               RunObserver* observer = nullptr);

}  // namespace edgebench
