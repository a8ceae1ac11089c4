// soak:DURATION: --streams closed-loop streams for exactly DURATION, cut into --window windows,
// past the raw-sample cap on per-window histograms: how latency drifts as the device heats.
#include "load/scenario_registry.h"
#include "load/scenarios/streamed.h"

namespace edgebench {
namespace {

Status ParseSoak(const std::string& parameter, bool has_parameter, ScenarioSpec& spec) {
  if (!has_parameter) return Status::Error("needs a duration, e.g. soak:30m");
  auto ms = ParseDurationMs(parameter);
  if (!ms.ok()) return ms.status();
  spec.duration_ms = ms.value();
  return Status::Ok();
}

std::string CanonicalSoak(const ScenarioSpec& spec) {
  return "soak:" + (spec.duration_ms % 1000 == 0 ? std::to_string(spec.duration_ms / 1000) + "s"
                                                 : std::to_string(spec.duration_ms) + "ms");
}

int SoakStreams(const ScenarioSpec&, const RunSettings& s) { return static_cast<int>(s.streams); }

// A soak runs for its duration, whatever the query counts.
void SoakSettings(const ScenarioSpec& spec, RunSettings& s) {
  s.min_duration_ms = spec.duration_ms;
  s.max_duration_ms = spec.duration_ms;
  s.min_queries = 1;
}

class SoakScenario : public StreamedScenario {
 public:
  using StreamedScenario::StreamedScenario;
  ScenarioResult Run(ScenarioContext& context) override {
    ClosedLoopPlan plan = ClosedLoopPlanFor(settings(), streams());
    // A soak runs its duration: past max_queries it keeps per-window histograms, not samples.
    plan.histograms_beyond_cap = true;
    plan.window_ns = settings().window_ms * 1'000'000;
    return RunClosedLoop(SystemOf(context), *context.input_pool, plan, context.observer, context.now);
  }
};


}  // namespace

extern const ScenarioEntry kSoakScenario;
const ScenarioEntry kSoakScenario = {
    "soak", "soak:DURATION (e.g. soak:30m)",
    "--streams closed-loop streams for exactly DURATION, in --window windows: drift as the device heats",
    SessionKind::kTensor, "sessions streams",
    {.judge_cv = false, .drift = true},
    ParseSoak, CanonicalSoak, SoakStreams, SoakSettings, MakeStreamed<SoakScenario>};

}  // namespace edgebench
