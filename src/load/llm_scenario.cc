#include "load/llm_scenario.h"

#include <random>

namespace edgebench {

std::vector<std::vector<int32_t>> SeededPrompts(int64_t sequences, int64_t tokens, int32_t vocab_size,
                                                uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> id(0, vocab_size - 1);
  std::vector<std::vector<int32_t>> prompts(static_cast<size_t>(sequences));
  for (auto& p : prompts) {
    p.resize(static_cast<size_t>(tokens));
    for (auto& t : p) t = id(rng);
  }
  return prompts;
}

LlmSamples RunLlmScenario(LlmSession& session, const LlmSettings& s,
                          const std::function<int64_t()>& now, RunObserver* observer) {
  LlmSamples samples;
  const LlmSessionInfo info = session.Info();
  std::vector<std::vector<int32_t>> prompts;
  if (!s.prompt_text.empty()) {
    auto tokens = session.Tokenize(s.prompt_text);
    if (!tokens.ok()) {
      samples.error = tokens.status();
      samples.failed_stage = "tokenize";
      return samples;
    }
    prompts.assign(static_cast<size_t>(s.sequences), tokens.value());
    samples.prompt_source = "text through the model's tokenizer";
  } else {
    prompts = SeededPrompts(s.sequences, s.prompt_tokens, info.vocab_size, s.seed);
    samples.prompt_source = "seeded token ids (seed " + std::to_string(s.seed) + ")";
  }
  samples.prompt_tokens = static_cast<int64_t>(prompts.empty() ? 0 : prompts[0].size());

  auto request = [&](std::vector<LlmRequestTiming>& into) -> bool {
    // Every request starts from an empty KV state; clearing is not part of the request.
    if (Status cleared = session.ClearState(); !cleared.ok()) {
      samples.error = cleared;
      samples.failed_stage = "clear";
      return false;
    }
    LlmRequestTiming timing;
    timing.start_ns = now();
    auto tokens = session.Prefill(prompts);
    timing.first_token_ns = now();
    if (!tokens.ok()) {
      samples.error = tokens.status();
      samples.failed_stage = "prefill";
      return false;
    }
    std::vector<int32_t> last = tokens.take();
    timing.token_ns.reserve(static_cast<size_t>(std::max<int64_t>(0, s.gen_tokens - 1)));
    for (int64_t step = 1; step < s.gen_tokens; ++step) {
      auto next = session.DecodeStep(last);
      const int64_t t = now();
      if (!next.ok()) {
        samples.error = next.status();
        samples.failed_stage = "decode";
        return false;
      }
      timing.token_ns.push_back(t);
      last = next.take();
    }
    into.push_back(std::move(timing));
    return true;
  };
  if (observer) observer->OnPhaseStart("warmup", 0);
  for (int64_t i = 0; i < s.warmup_requests; ++i) {
    if (!request(samples.warmup)) return samples;
  }
  if (observer) {
    observer->OnPhaseEnd("warmup");
    observer->OnPhaseStart("measure", 0);
  }
  for (int64_t i = 0; i < s.repetitions; ++i) {
    if (!request(samples.measured)) return samples;
  }
  if (observer) observer->OnPhaseEnd("measure");
  return samples;
}

}  // namespace edgebench
