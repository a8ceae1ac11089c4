// The scenario registry: each scenario with its settings, validated once.
#include <algorithm>

#include "load/closed_loop.h"
#include "load/scenario_registry.h"
#include "load/scenario.h"
#include "load/server.h"
#include "load/single_stream.h"
#include "core/strings.h"

namespace edgebench {
namespace {

ClosedLoopPlan ClosedLoopFrom(const RunSettings& s, int streams) {
  ClosedLoopPlan plan;
  plan.streams = streams;
  plan.warmup_queries = s.warmup_queries;
  plan.min_queries = s.min_queries;
  plan.min_duration_ns = s.min_duration_ms * 1'000'000;
  plan.max_duration_ns = s.max_duration_ms * 1'000'000;
  plan.max_queries = s.max_queries;
  return plan;
}

// A tensor scenario whose queries come from `streams` streams or workers, each on its own
// session (per-stream) or all on one (shared).
class PooledScenario : public Scenario {
 public:
  PooledScenario(ScenarioSpec spec, EffectiveRunSettings settings, int streams)
      : spec_(std::move(spec)), settings_(std::move(settings)), streams_(streams) {}
  std::string name() const override { return spec_.Canonical(); }
  SessionKind session_kind() const override { return SessionKind::kTensor; }
  int sessions_needed() const override { return shared() ? 1 : streams_; }
  int streams() const override { return streams_; }
  bool needs_concurrent_runs() const override { return shared() && streams_ > 1; }
  // Every tensor scenario binds --batch (offline by name; tune races it as one of its lists).
  int64_t batch() const override { return settings_.values.batch; }

  ScenarioResult Run(ScenarioContext& context) override {
    const RunSettings& s = settings_.values;
    if (spec_.kind == ScenarioKind::kServer) {
      ServerPlan plan;
      plan.workers = streams_;
      plan.target_qps = spec_.target_qps;
      plan.seed = s.seed;
      plan.warmup_queries = s.warmup_queries;
      plan.min_queries = s.min_queries;
      plan.min_duration_ns = s.min_duration_ms * 1'000'000;
      plan.max_duration_ns = s.max_duration_ms * 1'000'000;
      plan.max_queries = s.max_queries;
      plan.window_ns = s.window_ms * 1'000'000;  // the histograms' past kServerRawSampleCap
      return RunServer(SystemOf(context), *context.input_pool, plan, context.observer);
    }
    ClosedLoopPlan plan = ClosedLoopFrom(s, streams_);
    if (spec_.kind == ScenarioKind::kSoak) {
      // A soak runs its duration: past max_queries it keeps per-window histograms, not samples.
      plan.histograms_beyond_cap = true;
      plan.window_ns = s.window_ms * 1'000'000;
    }
    return RunClosedLoop(SystemOf(context), *context.input_pool, plan, context.observer, context.now);
  }

 private:
  bool shared() const { return settings_.values.sessions == "shared"; }
  ScenarioSpec spec_;
  EffectiveRunSettings settings_;
  int streams_;
};

class SingleStreamScenario : public Scenario {
 public:
  explicit SingleStreamScenario(EffectiveRunSettings settings) : settings_(std::move(settings)) {}
  std::string name() const override { return "single-stream"; }
  SessionKind session_kind() const override { return SessionKind::kTensor; }
  int64_t batch() const override { return settings_.values.batch; }
  ScenarioResult Run(ScenarioContext& context) override {
    return RunSingleStream(SystemOf(context), *context.input_pool, settings_, context.observer,
                           context.now);
  }

 private:
  EffectiveRunSettings settings_;
};

class LanguageModelScenario : public Scenario {
 public:
  explicit LanguageModelScenario(LlmSettings settings) : settings_(std::move(settings)) {}
  std::string name() const override { return "llm"; }
  SessionKind session_kind() const override { return SessionKind::kLanguageModel; }
  ScenarioResult Run(ScenarioContext& context) override {
    ScenarioResult result;
    result.llm = RunLlmScenario(*context.llm, settings_, context.now, context.observer);
    result.error = result.llm->error;
    result.failed_stage = result.llm->failed_stage;
    return result;
  }

 private:
  LlmSettings settings_;
};

}  // namespace

SystemUnderTest& SystemOf(ScenarioContext& context) {
  if (context.system) return *context.system;
  if (!context.sessions_system) context.sessions_system = std::make_unique<SessionSystem>(context.sessions);
  return *context.sessions_system;
}

std::vector<std::string> ScenarioNames() {
  std::vector<std::string> names = {"single-stream", "multi-stream:N", "server:QPS", "offline", "soak:DURATION", "llm"};
  for (const ScenarioEntry* entry : RegisteredScenarios()) names.push_back(entry->form);
  return names;
}

Result<EffectiveRunSettings> ValidateForScenario(const std::string& scenario, const RunSettings& requested) {
  auto spec = ParseScenario(scenario);
  if (!spec.ok()) return spec.status();
  RunSettings settings = requested;
  if (spec.value().kind == ScenarioKind::kSoak) {
    // A soak runs for its duration, whatever the query counts.
    settings.min_duration_ms = spec.value().duration_ms;
    settings.max_duration_ms = spec.value().duration_ms;
    settings.min_queries = 1;
  }
  return Validate(settings);
}

Result<std::unique_ptr<Scenario>> MakeScenario(const std::string& name, const RunSettings& settings,
                                               const LlmSettings& llm) {
  auto spec = ParseScenario(name);
  if (!spec.ok()) return spec.status();
  if (spec.value().kind == ScenarioKind::kLanguageModel) {
    if (llm.prompt_tokens < 1 || llm.gen_tokens < 1 || llm.repetitions < 1 || llm.warmup_requests < 0 ||
        llm.sequences < 1) {
      return Status::Error(
          "bad LLM settings: prompt, gen, repeat and sequences must be at least 1, warmup 0 or more");
    }
    return std::unique_ptr<Scenario>(new LanguageModelScenario(llm));
  }
  auto effective = ValidateForScenario(name, settings);
  if (!effective.ok()) return effective.status();
  const RunSettings& s = effective.value().values;
  switch (spec.value().kind) {
    case ScenarioKind::kSingleStream:
      return std::unique_ptr<Scenario>(new SingleStreamScenario(effective.take()));
    case ScenarioKind::kMultiStream: {
      const int streams = static_cast<int>(spec.value().streams);
      return std::unique_ptr<Scenario>(new PooledScenario(spec.take(), effective.take(), streams));
    }
    case ScenarioKind::kServer:
    case ScenarioKind::kOffline: {
      const int workers = static_cast<int>(s.concurrency);
      return std::unique_ptr<Scenario>(new PooledScenario(spec.take(), effective.take(), workers));
    }
    case ScenarioKind::kSoak: {
      const int streams = static_cast<int>(s.streams);
      return std::unique_ptr<Scenario>(new PooledScenario(spec.take(), effective.take(), streams));
    }
    case ScenarioKind::kRegistered: return spec.value().registered->make(spec.value(), effective.take());
    case ScenarioKind::kLanguageModel: break;
  }
  return Status::Error("unknown scenario '" + name + "'; scenarios: " + ScenarioForms());
}

}  // namespace edgebench
