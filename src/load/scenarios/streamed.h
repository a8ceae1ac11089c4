// What the tensor scenarios share: N streams (or workers) issuing queries, each on its own
// session (--sessions per-stream) or all on one (shared), the batch bound on the inputs, and
// the closed-loop plan their settings make. Each scenario in this folder derives its Run.
#pragma once

#include <string>

#include "load/closed_loop.h"
#include "load/scenario_registry.h"
#include "load/scenario.h"
#include "load/scenario_spec.h"
#include "load/settings.h"

namespace edgebench {

class StreamedScenario : public Scenario {
 public:
  StreamedScenario(ScenarioSpec spec, EffectiveRunSettings settings, int streams)
      : spec_(std::move(spec)), settings_(std::move(settings)), streams_(streams) {}
  std::string name() const override { return spec_.Canonical(); }
  SessionKind session_kind() const override { return SessionKind::kTensor; }
  int sessions_needed() const override { return shared() ? 1 : streams_; }
  int streams() const override { return streams_; }
  bool needs_concurrent_runs() const override { return shared() && streams_ > 1; }
  // Every tensor scenario binds --batch (offline by name; tune races it as one of its lists).
  int64_t batch() const override { return settings_.values.batch; }

 protected:
  bool shared() const { return settings_.values.sessions == "shared"; }
  const ScenarioSpec& spec() const { return spec_; }
  const EffectiveRunSettings& effective() const { return settings_; }
  const RunSettings& settings() const { return settings_.values; }

 private:
  ScenarioSpec spec_;
  EffectiveRunSettings settings_;
  int streams_;
};

// The closed loop of `streams` streams under the settings' query counts and durations.
ClosedLoopPlan ClosedLoopPlanFor(const RunSettings& settings, int streams);

// The streams closed loop as it is (multi-stream:N, offline): each stream issues its next query
// when its last completes.
class ClosedLoopScenario final : public StreamedScenario {
 public:
  using StreamedScenario::StreamedScenario;
  ScenarioResult Run(ScenarioContext& context) override {
    return RunClosedLoop(SystemOf(context), *context.input_pool, ClosedLoopPlanFor(settings(), streams()),
                         context.observer, context.now);
  }
};

// An entry's `make` for a StreamedScenario S: on the streams its entry counts
// (ScenarioEntry::streams), so the record's and the scenario's streams are one number.
template <class S>
Result<std::unique_ptr<Scenario>> MakeStreamed(const ScenarioSpec& spec, EffectiveRunSettings settings,
                                               const LlmSettings&) {
  const int streams = spec.entry->streams(spec, settings.values);
  return std::unique_ptr<Scenario>(new S(spec, std::move(settings), streams));
}

// Parameters of the scenarios that take none ("single-stream", "offline", "llm").
Status ParseNoParameter(const std::string& parameter, bool has_parameter, ScenarioSpec& spec);
// The canonical text of a scenario without a parameter: its family.
std::string CanonicalFamily(const ScenarioSpec& spec);
// One stream.
int OneStream(const ScenarioSpec& spec, const RunSettings& settings);
// The workers serving the queries (server, offline): --concurrency.
int ConcurrencyStreams(const ScenarioSpec& spec, const RunSettings& settings);

}  // namespace edgebench
