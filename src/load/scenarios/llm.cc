// llm: a language model's requests, prefill then decode (load/llm_scenario.h has the loop).
#include "load/llm_scenario.h"
#include "load/scenario_registry.h"
#include "load/scenarios/streamed.h"

namespace edgebench {
namespace {

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

Result<std::unique_ptr<Scenario>> MakeLanguageModel(const ScenarioSpec&, EffectiveRunSettings,
                                                    const LlmSettings& llm) {
  if (llm.prompt_tokens < 1 || llm.gen_tokens < 1 || llm.repetitions < 1 || llm.warmup_requests < 0 ||
      llm.sequences < 1) {
    return Status::Error("bad LLM settings: prompt, gen, repeat and sequences must be at least 1, warmup 0 or more");
  }
  return std::unique_ptr<Scenario>(new LanguageModelScenario(llm));
}

}  // namespace

extern const ScenarioEntry kLanguageModelScenario;
const ScenarioEntry kLanguageModelScenario = {
    "llm", "llm",
    "a language model's requests: time to first token, decode rate, inter-token latency",
    SessionKind::kLanguageModel, "",
    {.judge_cv = true},
    ParseNoParameter, CanonicalFamily, OneStream, nullptr, MakeLanguageModel};

}  // namespace edgebench
