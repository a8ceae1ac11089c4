// offline: every query available at once, served back to back by --concurrency sessions with
// --batch samples per query: throughput in samples per second (load/closed_loop.h has the loop).
#include "load/scenario_registry.h"
#include "load/scenarios/streamed.h"

namespace edgebench {
namespace {

class OfflineScenario : public StreamedScenario {
 public:
  using StreamedScenario::StreamedScenario;
  ScenarioResult Run(ScenarioContext& context) override {
    return RunClosedLoop(SystemOf(context), *context.input_pool, ClosedLoopPlanFor(settings(), streams()),
                         context.observer, context.now);
  }
};

Result<std::unique_ptr<Scenario>> MakeOffline(const ScenarioSpec& spec, EffectiveRunSettings settings,
                                              const LlmSettings&) {
  const int workers = static_cast<int>(settings.values.concurrency);
  return std::unique_ptr<Scenario>(new OfflineScenario(spec, std::move(settings), workers));
}

}  // namespace

extern const ScenarioEntry kOfflineScenario;
const ScenarioEntry kOfflineScenario = {
    "offline", "offline",
    "queries back to back on --concurrency sessions, --batch samples each: throughput in samples/s",
    SessionKind::kTensor, "sessions concurrency batch",
    {.judge_cv = true, .judge_stability = true, .throughput = true},
    ParseNoParameter, CanonicalFamily, ConcurrencyStreams, nullptr, MakeOffline};

}  // namespace edgebench
