// offline: every query available at once, served back to back by --concurrency sessions with
// --batch samples per query: throughput in samples per second (load/closed_loop.h has the loop).
#include "load/scenario_registry.h"
#include "load/scenarios/streamed.h"

namespace edgebench {

extern const ScenarioEntry kOfflineScenario;
const ScenarioEntry kOfflineScenario = {
    "offline", "offline",
    "queries back to back on --concurrency sessions, --batch samples each: throughput in samples/s",
    SessionKind::kTensor, "sessions concurrency batch",
    {.judge_cv = true, .judge_stability = true, .throughput = true, .compared_by_throughput = true},
    ParseNoParameter, CanonicalFamily, ConcurrencyStreams, nullptr, MakeStreamed<ClosedLoopScenario>};

}  // namespace edgebench
