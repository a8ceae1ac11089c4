// Runs one case in this process and returns its record. The worker process calls this; so
// does `edgebench run --in-process`.
#pragma once

#include <functional>
#include <string>

#include "backends/registry.h"
#include "report/record.h"
#include "runner/case_spec.h"

namespace edgebench {

// Called as each stage starts ("load", "prepare", "inputs", "warmup", "measure"), so that a
// crash can be dated to its stage by the orchestrator.
using StageCallback = std::function<void(const std::string& stage)>;

// The record's configuration and environment, before anything runs. Also used by the
// orchestrator for cases whose worker died.
Record MakeBaseRecord(const CaseSpec& spec, const Registry& registry);

Record RunCase(const CaseSpec& spec, Registry& registry, const StageCallback& on_stage = {});

// `record` ended at `stage` with `status` and `error`; summary and verdict filled in.
Record FailedRecord(Record record, CaseStatus status, const std::string& stage, const std::string& error);

// The LLM scenario's case (runner/run_llm_case.cc); RunCase dispatches to it.
Record RunLlmCase(const CaseSpec& spec, Registry& registry, const StageCallback& on_stage);

}  // namespace edgebench
