#include "load/scenarios/streamed.h"

#include "load/scenario_registry.h"

namespace edgebench {

ClosedLoopPlan ClosedLoopPlanFor(const RunSettings& s, int streams) {
  ClosedLoopPlan plan;
  plan.streams = streams;
  plan.warmup_queries = s.warmup_queries;
  plan.min_queries = s.min_queries;
  plan.min_duration_ns = s.min_duration_ms * 1'000'000;
  plan.max_duration_ns = s.max_duration_ms * 1'000'000;
  plan.max_queries = s.max_queries;
  return plan;
}

Status ParseNoParameter(const std::string&, bool has_parameter, ScenarioSpec&) {
  return has_parameter ? Status::Error("takes no parameter") : Status::Ok();
}

std::string CanonicalFamily(const ScenarioSpec& spec) { return spec.entry->family; }

int OneStream(const ScenarioSpec&, const RunSettings&) { return 1; }

int ConcurrencyStreams(const ScenarioSpec&, const RunSettings& s) { return static_cast<int>(s.concurrency); }

}  // namespace edgebench
