// multi-stream:N: N closed-loop streams at once, each on its own session or all on one
// (load/closed_loop.h has the loop).
#include <cmath>

#include "load/scenario_registry.h"
#include "load/scenarios/streamed.h"

namespace edgebench {
namespace {

Status ParseMultiStream(const std::string& parameter, bool, ScenarioSpec& spec) {
  double streams = 0;
  if (!ParseDecimal(parameter, streams) || streams != std::floor(streams) || streams < 1 || streams > kMaxStreams) {
    return Status::Error("N must be a whole number of streams from 1 to " + std::to_string(kMaxStreams));
  }
  spec.streams = static_cast<int64_t>(streams);
  return Status::Ok();
}

std::string CanonicalMultiStream(const ScenarioSpec& spec) { return "multi-stream:" + std::to_string(spec.streams); }

int MultiStreams(const ScenarioSpec& spec, const RunSettings&) { return static_cast<int>(spec.streams); }


}  // namespace

extern const ScenarioEntry kMultiStreamScenario;
const ScenarioEntry kMultiStreamScenario = {
    "multi-stream", "multi-stream:N",
    "N closed-loop streams at once: per-query latency and throughput under N users",
    SessionKind::kTensor, "sessions",
    {.judge_cv = true, .judge_stability = true, .compared_by_throughput = true, .raced = true},
    ParseMultiStream, CanonicalMultiStream, MultiStreams, nullptr, MakeStreamed<ClosedLoopScenario>};

}  // namespace edgebench
