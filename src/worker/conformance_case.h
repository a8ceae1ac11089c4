// `edgebench conformance`'s side in a worker: ONNX node test cases, one after another on one
// target, each loaded, run on its data sets and its outputs compared with ONNX's expected ones
// (diagnose/conformance_check.h). The orchestrator (runner/conformance_run.h) hears each case
// begin and end, so a case that takes the worker down costs that case only.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "diagnose/conformance_cases.h"
#include "record/conformance_cell.h"

namespace edgebench {

struct ConformanceRequest {
  std::string target;  // as the user wrote it
  std::string cases_dir;
  std::string onnx_version;
  std::vector<ConformanceCase> cases;
  int64_t case_timeout_ms = 0;  // the worker ends itself (SIGALRM) past this; 0: no limit
};

nlohmann::json ConformanceRequestToJson(const ConformanceRequest& request);
Result<ConformanceRequest> ConformanceRequestFromJson(const nlohmann::json& json);

// What the worker says before its first case: the runtime that will answer.
struct ConformanceRuntime {
  std::string target;  // canonical
  std::string runtime;
  std::string version;
  std::string error;  // the target cannot run here (not built, no such device): why
};

struct ConformanceCallbacks {
  std::function<void(const ConformanceRuntime&)> runtime;
  std::function<void(size_t index)> begin;  // case `index` starts (the alarm is set)
  std::function<void(size_t index, const ConformanceCell&)> cell;
};

// Runs every case of the request in this process, in order.
void RunConformanceCases(const ConformanceRequest& request, Registry& registry, const ConformanceCallbacks& callbacks);

// A case's cell before it runs: its names and versions, no outcome yet.
ConformanceCell BlankConformanceCell(const ConformanceCase& c, const ConformanceRuntime& runtime,
                                     const std::string& onnx_version);

// Tests only: EDGEBENCH_CONFORMANCE_PLANT=KIND:CASE[,KIND:CASE...] makes the worker misbehave in
// the named case, so the tests can show that each misbehaviour is caught: `wrong` adds 1 to the
// runtime's first output value before the comparison, `crash` aborts, `hang` sleeps forever.
inline constexpr const char kConformancePlantVariable[] = "EDGEBENCH_CONFORMANCE_PLANT";

}  // namespace edgebench
