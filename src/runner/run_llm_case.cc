// One LLM case: load the GGUF on a llama.cpp target, run the LLM scenario for one prompt
// length x generation length, and fill the record's llm section.
#include <fstream>

#include "core/clock.h"
#include "runner/run_case.h"

namespace edgebench {
namespace {

// VmRSS and VmHWM of this process, in bytes.
std::pair<int64_t, int64_t> ResidentMemory() {
  std::ifstream in("/proc/self/status");
  int64_t rss = 0, peak = 0;
  for (std::string line; std::getline(in, line);) {
    auto kb = [&](const char* key, int64_t& into) {
      if (line.rfind(key, 0) == 0) into = std::stoll(line.substr(std::string(key).size())) * 1024;
    };
    kb("VmRSS:", rss);
    kb("VmHWM:", peak);
  }
  return {rss, peak};
}

}  // namespace

Record RunLlmCase(const CaseSpec& spec, Registry& registry, const StageCallback& on_stage) {
  auto stage = [&](const std::string& name) {
    if (on_stage) on_stage(name);
  };
  Record r = MakeBaseRecord(spec, registry);
  r.scenario = "llm";
  r.llm = LlmRecord{};
  r.llm->settings = spec.llm;
  const LlmSettings& s = spec.llm;
  if (s.prompt_tokens < 1 || s.gen_tokens < 1 || s.repetitions < 1 || s.warmup_requests < 0 ||
      s.sequences < 1) {
    return FailedRecord(r, CaseStatus::kFailed, "settings",
                "bad LLM settings: prompt, gen, repeat and sequences must be at least 1");
  }
  auto target = ParseTarget(spec.target);
  if (!target.ok()) return FailedRecord(r, CaseStatus::kFailed, "target", target.error());
  Backend* backend = registry.Find(target.value().backend);
  if (!backend) return FailedRecord(r, CaseStatus::kUnavailable, "target", registry.WhyUnusable(target.value().backend));
  if (!backend->Info().capabilities.language_model) {
    return FailedRecord(r, CaseStatus::kFailed, "target",
                "backend '" + target.value().backend + "' does not run language models; use llamacpp:cpu");
  }
  stage("load");
  LlmLoadHints hints{static_cast<int32_t>(s.prompt_tokens + s.gen_tokens), static_cast<int32_t>(s.sequences)};
  const auto load_start = SteadyClock::now();
  auto session = backend->LoadLlm(Artifact{spec.artifact}, target.value(), hints);
  r.load_ns = ElapsedNs(load_start, SteadyClock::now());
  if (!session.ok()) return FailedRecord(r, CaseStatus::kFailed, "load", session.error());
  LlmSessionInfo info = session.value()->Info();
  Target effective = target.value();
  for (const auto& [key, value] : info.effective_options) effective.options[key] = value;
  r.effective_target = effective.Canonical();
  for (const auto& [key, value] : info.environment) r.environment.runtimes["llamacpp." + key] = value;
  r.notes = info.notes;
  r.llm->session = info;

  stage("run");
  LlmSamples samples = RunLlmScenario(*session.value(), s, NowNs);
  r.llm->prompt_source = samples.prompt_source;
  r.llm->prompt_tokens_run = samples.prompt_tokens;
  r.llm->warmup = std::move(samples.warmup);
  r.llm->measured = std::move(samples.measured);
  std::tie(r.llm->rss_bytes, r.llm->rss_peak_bytes) = ResidentMemory();
  if (!samples.error.ok()) return FailedRecord(r, CaseStatus::kFailed, samples.failed_stage, samples.error.message());
  FinishRecord(r);
  return r;
}

}  // namespace edgebench
