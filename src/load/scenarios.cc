// The scenario registry: each scenario with its settings, validated once.
#include "load/scenario.h"

#include "load/single_stream.h"
#include "core/strings.h"

namespace edgebench {
namespace {

class SingleStreamScenario : public Scenario {
 public:
  explicit SingleStreamScenario(EffectiveRunSettings settings) : settings_(std::move(settings)) {}
  std::string name() const override { return "single-stream"; }
  SessionKind session_kind() const override { return SessionKind::kTensor; }
  ScenarioResult Run(ScenarioContext& context) override {
    return RunSingleStream(*context.sessions.at(0), *context.input_pool, settings_, context.observer,
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

std::vector<std::string> ScenarioNames() { return {"single-stream", "llm"}; }

Result<std::unique_ptr<Scenario>> MakeScenario(const std::string& name, const RunSettings& settings,
                                               const LlmSettings& llm) {
  if (name == "single-stream") {
    auto effective = Validate(settings);
    if (!effective.ok()) return effective.status();
    return std::unique_ptr<Scenario>(new SingleStreamScenario(effective.take()));
  }
  if (name == "llm") {
    if (llm.prompt_tokens < 1 || llm.gen_tokens < 1 || llm.repetitions < 1 || llm.warmup_requests < 0 ||
        llm.sequences < 1) {
      return Status::Error(
          "bad LLM settings: prompt, gen, repeat and sequences must be at least 1, warmup 0 or more");
    }
    return std::unique_ptr<Scenario>(new LanguageModelScenario(llm));
  }
  return Status::Error("unknown scenario '" + name + "'; known scenarios: " + Join(ScenarioNames(), ", "));
}

}  // namespace edgebench
