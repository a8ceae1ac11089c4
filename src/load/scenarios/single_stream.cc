// single-stream: one query at a time, the next issued when the last completes
// (load/single_stream.h has the loop).
#include "load/scenario_registry.h"
#include "load/scenarios/streamed.h"
#include "load/single_stream.h"

namespace edgebench {
namespace {

class SingleStreamScenario : public StreamedScenario {
 public:
  using StreamedScenario::StreamedScenario;
  ScenarioResult Run(ScenarioContext& context) override {
    return RunSingleStream(SystemOf(context), *context.input_pool, effective(), context.observer, context.now);
  }
};


}  // namespace

extern const ScenarioEntry kSingleStreamScenario;
const ScenarioEntry kSingleStreamScenario = {
    "single-stream", "single-stream",
    "one query at a time, the next when the last completes: the latency of one user",
    SessionKind::kTensor, "",
    {.judge_cv = true, .judge_stability = true, .baseline = true, .raced = true},
    ParseNoParameter, CanonicalFamily, OneStream, nullptr, MakeStreamed<SingleStreamScenario>};

}  // namespace edgebench
