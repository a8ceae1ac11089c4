// The LLM scenario: for one prompt length x generation length, repeated requests timed token by
// token by the harness. Two ways to issue them:
//  - lockstep (concurrency 1, no rate, no length ranges): one request at a time, each from an
//    empty KV state, `sequences` sequences prefilled and decoded together as one request;
//  - serving (--concurrency N, --rate R, length ranges): up to N requests in flight on one
//    model, one sequence each, with continuous batching: every decode step advances every
//    active sequence by one token; a finished sequence's KV cells are cleared and the next
//    request's prompt is prefilled into that slot before the next step. Requests arrive
//    closed-loop (one as soon as a slot frees) or, with a rate, as a seeded Poisson process,
//    and a request's start is its scheduled arrival (queueing counted).
// Vision-language requests (settings.images) prefill stage by stage (load/vlm_request.h); under
// serving load a joining request's whole prefill (pre-processing, encode, image and text
// prefill) runs before the next decode step, so the requests in flight wait for it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/llm_session.h"
#include "core/llm_types.h"
#include "load/observer.h"

namespace edgebench {

struct LlmSamples {
  std::vector<LlmRequestTiming> warmup;
  std::vector<LlmRequestTiming> measured;
  std::string prompt_source;  // "seeded token ids (seed N)" or "text through the model's tokenizer"
  int64_t prompt_tokens = 0;  // as run; 0 when drawn per request (each timing has its own)
  Status error;
  std::string failed_stage;
};

// The scenario's clock: `now` (steady ns) and, for open-loop arrivals, a wait until a time of
// that clock (empty: sleep on the steady clock). Tests inject fake ones.
struct LlmClock {
  std::function<int64_t()> now;
  std::function<void(int64_t)> wait_until;
};

// Runs warmup then measured requests (serving runs: warmup closed-loop, then the KV state
// cleared, then the measured requests with their arrivals).
LlmSamples RunLlmScenario(LlmSession& session, const LlmSettings& settings,
                          const std::function<int64_t()>& now, RunObserver* observer = nullptr,
                          const std::function<void(int64_t)>& wait_until = {});

// Seeded prompt token ids in [0, vocab_size), one prompt per sequence.
std::vector<std::vector<int32_t>> SeededPrompts(int64_t sequences, int64_t tokens, int32_t vocab_size,
                                                uint64_t seed);

// One request of a serving run.
struct LlmPlannedRequest {
  int64_t arrival_ns = 0;  // after the phase's start; used with open-loop arrivals only
  std::vector<int32_t> prompt;
  int64_t gen_tokens = 1;  // the first token included
  std::vector<std::string> images{};  // a vision-language request: these images and `text`
  std::string text{};
};

// `count` requests from the settings: lengths fixed or drawn from the ranges, token ids seeded
// (or `text_prompt` when not empty), arrivals Poisson at settings.rate when it is set. The
// same seed and `stream` give the same requests (warmup and measured use different streams).
std::vector<LlmPlannedRequest> PlanLlmRequests(const LlmSettings& settings, int64_t count, int32_t vocab_size,
                                               const std::vector<int32_t>& text_prompt, uint64_t stream);

// Serves `requests` with continuous batching on sequences 0..concurrency-1, which must be
// empty. Open loop: each request starts at the phase's start + its arrival; closed loop: when
// a slot takes it. Appends the timings in request order; on an error, `failed_stage` is
// "prefill", "decode" or "clear". `on_finished`, when set, is told how many requests have
// finished each time one does.
Status ServeLlmRequests(LlmSession& session, const std::vector<LlmPlannedRequest>& requests,
                        int64_t concurrency, bool open_loop, const LlmClock& clock,
                        std::vector<LlmRequestTiming>& timings, std::string& failed_stage,
                        const std::function<void(size_t)>& on_finished = {});

}  // namespace edgebench
